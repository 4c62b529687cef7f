/**
 * Generated hostile requests, by class (regex, nesting, ids, geometry, headers, SPARQL size, percent and
 * UTF-8 encodings of paths and bodies, `lang`, truncated multipart uploads), for the fuzz
 * tests (test/integration/http/fuzz.test.ts) and the fuzz bench (bench/fuzz.ts). Every request is one
 * the service must refuse with a 4xx and without storing anything, or (`mayAnswer`) a read it must answer
 * without a 5xx, quickly.
 */

/** One generated request. */
export interface FuzzRequest {
  kind: FuzzClass;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Text, or bytes for a body that is not UTF-8. */
  body?: string | Uint8Array;
  /** A read that may succeed (2xx); otherwise a 4xx is expected. */
  mayAnswer?: boolean;
  /** The entity id a write named, to check it was not stored. */
  id?: string;
}

export const FUZZ_CLASSES = [
  "regex",
  "nesting",
  "ids",
  "geometry",
  "headers",
  "sparql",
  "encoding",
  "lang",
  "multipart",
] as const;
export type FuzzClass = (typeof FUZZ_CLASSES)[number];

/** A small seeded PRNG (mulberry32): the same seed gives the same inputs. */
export { mulberry32 as rng } from "../../src/demo/feed/prng";

const JSON_CT = { "Content-Type": "application/json" };
const ENTITIES = "/ngsi-ld/v1/entities";
const UPSERT = "/ngsi-ld/v1/entityOperations/upsert";
const TEMPORAL = "/ngsi-ld/v1/temporal/entities";

/**
 * Generates request number `i` of class `kind` with `r`. `scale` (0 to 1) shrinks the random part of the
 * sizes (ids, attribute counts, nesting, SPARQL texts) while keeping every input past its limit: the tests
 * use small ones, the bench full ones.
 */
export function fuzzRequest(kind: FuzzClass, r: () => number, i: number, scale = 1): FuzzRequest {
  const int = (n: number) => Math.floor(r() * n);
  const some = (n: number) => Math.floor(r() * n * scale);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const id = `urn:ngsi-ld:Fuzz:${kind}${i}`;
  switch (kind) {
    case "regex": {
      const refused = pick([
        `a{${100_000 + int(1e8)}}`,
        `(.*){1,${2000 + int(40_000)}}[bc]`,
        `x(?=${"y".repeat(1 + int(5))})`,
        `(?<!a)b`,
        `(a)\\1`,
        `(${"(".repeat(1 + int(4))}a`,
        `[${"z".repeat(int(3))}`,
        "a".repeat(1025 + some(3000)),
      ]);
      const bomb = pick(["(a+)+$", "(a|aa)*c", "(a*)*b", "(.*a){12}", "^(\\w+\\s?)*$", "(x+x+)+y"]);
      const shape = int(4);
      if (shape === 0)
        return {
          kind,
          method: "GET",
          path: `${ENTITIES}?type=Fuzz&idPattern=${encodeURIComponent(bomb)}`,
          headers: {},
          mayAnswer: true,
        };
      if (shape === 1)
        return {
          kind,
          method: "GET",
          path: `${ENTITIES}?type=Fuzz&q=name~=${encodeURIComponent(bomb)}`,
          headers: {},
          mayAnswer: true,
        };
      if (shape === 2)
        return {
          kind,
          method: "GET",
          path: `${ENTITIES}?type=Fuzz&idPattern=${encodeURIComponent(refused)}`,
          headers: {},
        };
      const sub = {
        type: "Subscription",
        entities: [{ type: "Fuzz", idPattern: refused }],
        notification: { endpoint: { uri: "http://example.org/n" } },
      };
      return {
        kind,
        method: "POST",
        path: "/ngsi-ld/v1/subscriptions",
        headers: JSON_CT,
        body: JSON.stringify(sub),
      };
    }
    case "nesting": {
      const depth = 65 + some(r() < 0.3 ? 20_000 : 2000);
      let v = "1";
      for (let d = 0; d < depth; d++) v = r() < 0.5 ? `[${v}]` : `{"k":${v}}`;
      const attr = `{"type":"Property","value":${v}}`;
      const where = int(3);
      if (where === 0)
        return {
          kind,
          method: "POST",
          path: ENTITIES,
          headers: JSON_CT,
          body: `{"id":"${id}","type":"Fuzz","a":${attr}}`,
          id,
        };
      if (where === 1)
        return {
          kind,
          method: "POST",
          path: "/ngsi-ld/v1/entityOperations/upsert",
          headers: JSON_CT,
          body: `[{"id":"${id}","type":"Fuzz","a":${attr}}]`,
          id,
        };
      return {
        kind,
        method: "POST",
        path: "/ngsi-ld/v1/temporal/entities",
        headers: JSON_CT,
        body: `{"id":"${id}","type":"Fuzz","a":[${attr}]}`,
        id,
      };
    }
    case "ids": {
      const bad = pick([
        `urn:ngsi-ld:Fuzz:${"x".repeat(2049 + some(200_000))}`,
        `${pick(["urn:citygraph:internal:", "URN:CityGraph:Internal:", "urn:citygraph:history:"])}${pick(["subscription:x", "a", "2026-01-01T00:00:00Z:urn:a"])}`,
        `no-scheme-${int(1e6)}`,
        `urn:ngsi-ld:Fuzz:${pick([" ", "\t", "<", ">", '"', "{", "\\"])}${int(99)}`,
        "",
        String(int(1e6)),
      ]);
      const where = int(3);
      if (where === 0)
        return {
          kind,
          method: "POST",
          path: ENTITIES,
          headers: JSON_CT,
          body: JSON.stringify({ id: bad, type: "Fuzz" }),
          id: bad,
        };
      if (where === 1) {
        const attrs: Record<string, unknown> = { id, type: "Fuzz" };
        const many = r() < 0.5;
        if (many) for (let a = 0; a < 1001 + some(3000); a++) attrs[`a${a}`] = { type: "Property", value: a };
        else
          attrs.a = Array.from({ length: 101 + some(2000) }, (_, k) => ({
            type: "Property",
            value: k,
            datasetId: `urn:ds:${k}`,
          }));
        return { kind, method: "POST", path: ENTITIES, headers: JSON_CT, body: JSON.stringify(attrs), id };
      }
      const name = pick([
        "type",
        "id",
        "@id",
        "@type",
        "@context",
        "urn:citygraph:internal:subscriptionState",
      ]);
      return {
        kind,
        method: pick(["DELETE", "PATCH", "PUT"]),
        path: `${ENTITIES}/urn:ngsi-ld:Fuzz:target/attrs/${encodeURIComponent(name)}`,
        headers: JSON_CT,
        body: '{"type":"Property","value":1}',
      };
    }
    case "geometry": {
      const p = () => [106 + r(), 10 + r()];
      const same = p();
      const a = p();
      const b = p();
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const geometry = pick<unknown>([
        { type: "Polygon", coordinates: [[same, same, same, same]] },
        { type: "Polygon", coordinates: [[a, mid, b, a]] },
        { type: "Polygon", coordinates: [[a, b, p(), p()]] },
        { type: "Polygon", coordinates: [[a, b, a]] },
        { type: "LineString", coordinates: [same, same] },
        { type: "Point", coordinates: [180 + r() * 1000, 0] },
        { type: "Point", coordinates: [0, -90 - r() * 1000] },
        { type: "Point", coordinates: ["1", 2] },
        { type: "MultiPolygon", coordinates: [[[same, same, same, same]]] },
        { type: "Circle", coordinates: [0, 0] },
      ]);
      return {
        kind,
        method: "POST",
        path: ENTITIES,
        headers: JSON_CT,
        body: JSON.stringify({ id, type: "Fuzz", location: { type: "GeoProperty", value: geometry } }),
        id,
      };
    }
    case "headers": {
      const body = JSON.stringify({ id, type: "Fuzz", a: { type: "Property", value: 1 } });
      const h = pick<Record<string, string>>([
        {
          "Content-Type": pick([
            "text/plain",
            "application/xml",
            "application/json-patch+json",
            "multipart/form-data; boundary=x",
            "*/*",
          ]),
        },
        {
          ...JSON_CT,
          Link: pick([
            "<",
            `<>; rel="http://www.w3.org/ns/json-ld#context"`,
            "garbage",
            `<a b>; rel="http://www.w3.org/ns/json-ld#context"`,
          ]),
        },
        { ...JSON_CT, "NGSILD-Tenant": pick(["a b", "ä", "x".repeat(65), "<t>", "a;b"]) },
        { "Content-Type": "application/ld+json" },
        {
          ...JSON_CT,
          Link: `<https://example.org/c.jsonld>; rel="http://www.w3.org/ns/json-ld#context"`,
          "Content-Type": "application/ld+json",
        },
      ]);
      return { kind, method: "POST", path: ENTITIES, headers: h, body, id };
    }
    case "sparql": {
      const n = Math.round((1000 + int(10_000)) * scale);
      const text = pick([
        () => `SELECT * { VALUES ?v { ${Array.from({ length: 40_000 + n * 10 }, (_, k) => k).join(" ")} } }`,
        () => `ASK ${"{".repeat(65 + n)}${"}".repeat(65 + n)}`,
        () => `ASK { FILTER(${"(".repeat(65 + n)}1${")".repeat(65 + n)}) }`,
        () =>
          `ASK { FILTER(${Array.from({ length: 257 + some(5000) }, (_, k) => `?x = ${k}`).join(pick([" && ", " || "]))}) }`,
        () => `${" ".repeat(20 + int(40))}{`,
        () => `${"PREFIX a: <x> ".repeat(1 + int(50))}${" ".repeat(int(50))}`,
      ])();
      const post = text.length > 4000 || r() < 0.5;
      return post
        ? {
            kind,
            method: "POST",
            path: "/sparql",
            headers: { "Content-Type": "application/sparql-query" },
            body: text,
          }
        : { kind, method: "GET", path: `/sparql?query=${encodeURIComponent(text)}`, headers: {} };
    }
    case "encoding":
      return encodingRequest(r, id);
    case "lang":
      return langRequest(r);
    case "multipart":
      return multipartRequest(r);
  }
}

/** Escapes that are malformed, or whose bytes are not UTF-8 (lone surrogates, overlong, cut short). */
const BAD_ESCAPES = ["%zz", "%", "%4", "%g0", "%ED%A0%BD%ED%B8%80", "%ED%B0%80", "%C0%AF", "%FF", "%E2%82"];
/** Text an IRI cannot hold, as JSON escapes: lone surrogates, U+FFFD, private use, noncharacters. */
const NOT_IRI = ["\\ud83d", "\\ude00x", "\\ufffd", "\\ue000", "\\ufdd0", "\\u0085"];

/** A path with a bad escape (any method, any face), or a body whose id, type or name is not IRI text. */
function encodingRequest(r: () => number, id: string): FuzzRequest {
  const kind = "encoding";
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const esc = pick(BAD_ESCAPES);
  const shape = Math.floor(r() * 4);
  if (shape === 0) {
    const path = pick([
      `${ENTITIES}/${esc}`,
      `${ENTITIES}/urn:ngsi-ld:Fuzz:target/attrs/${esc}`,
      `/ngsi-ld/v1/temporal/entities/${esc}`,
      `/ngsi-ld/v1/subscriptions/${esc}`,
      `/v1/cameras/${esc}`,
      `/api/v1/cameras/${esc}`,
      `/sparql${esc}`,
      `/open311/v2/requests/${esc}.json`,
      `/${esc}`,
    ]);
    const method = pick(["GET", "DELETE", "PATCH", "PUT", "POST"]);
    const body = method === "GET" || method === "DELETE" ? undefined : '{"type":"Property","value":1}';
    return { kind, method, path, headers: body ? JSON_CT : {}, body };
  }
  if (shape === 1) {
    // an id holding bytes that are not UTF-8: refused whole, never stored with U+FFFD in their place
    const bytes = pick([[0xff], [0xfe, 0xff], [0xc0, 0xaf], [0xed, 0xa0, 0xbd], [0xe2, 0x82]]);
    const body = Buffer.concat([
      Buffer.from(`{"id":"${id}`),
      Buffer.from(bytes),
      Buffer.from('","type":"Fuzz","a":{"type":"Property","value":1}}'),
    ]);
    return {
      kind,
      method: "POST",
      path: pick([ENTITIES, "/ngsi-ld/v1/temporal/entities"]),
      headers: JSON_CT,
      body,
      id,
    };
  }
  const bad = pick(NOT_IRI);
  const body = pick([
    `{"id":"${id}${bad}","type":"Fuzz"}`,
    `{"id":"${id}","type":"Fuzz${bad}"}`,
    `{"id":"${id}","type":"Fuzz","a${bad}":{"type":"Property","value":1}}`,
    `{"id":"${id}","type":"Fuzz","r":{"type":"Relationship","object":"urn:x:${bad}"}}`,
  ]);
  // a batch answers 207 for an entity it refuses: only a body that does not parse (a lone surrogate) goes there
  const surrogate = /ud[89a-f]/.test(bad);
  const where = pick(surrogate ? [ENTITIES, UPSERT, TEMPORAL] : [ENTITIES, TEMPORAL]);
  return {
    kind,
    method: "POST",
    path: where,
    headers: JSON_CT,
    body: where === UPSERT ? `[${body}]` : body,
    id,
  };
}

/** Reads with `lang` (§4.15) over the target, whose `label` has an empty language map: answered, never a 5xx. */
function langRequest(r: () => number): FuzzRequest {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const lang = pick(["*", "en", "*;q=0", "", ",", "en;q=abc", "vi,*;q=0.1", "x".repeat(300), "%2A"]);
  const path = pick([
    `${ENTITIES}?type=Fuzz&lang=${lang}`,
    `${ENTITIES}/urn:ngsi-ld:Fuzz:target?lang=${lang}`,
    `${ENTITIES}?type=Fuzz&lang=${lang}&format=keyValues`,
    `${ENTITIES}?type=Fuzz&lang=${lang}&attrs=label`,
    `/ngsi-ld/v1/temporal/entities?type=Fuzz&lang=${lang}`,
  ]);
  return { kind: "lang", method: "GET", path, headers: {}, mayAnswer: true };
}

/** A multipart upload cut short or malformed, to each upload path: a 400, and the service lives on. */
function multipartRequest(r: () => number): FuzzRequest {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const [path, field] = pick([
    ["/v1/citizen-reports", "images"],
    ["/api/v1/citizen-reports", "images"],
    ["/open311/v2/requests.json", "media"],
  ]);
  const file = `--zz\r\nContent-Disposition: form-data; name="${field}"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  const text = '--zz\r\nContent-Disposition: form-data; name="type"\r\n\r\naccident\r\n';
  const body = pick([
    `${file}abc`,
    `${text}${file}${"x".repeat(Math.floor(r() * 5000))}`,
    "--zz\r\nContent-Dispos",
    file.trim(),
    `--yy\r\n${file}abc`,
    `${text}--zz\r\nContent-Disposition: form-data; name="description"\r\n\r\nunfinished`,
  ]);
  const contentType = pick([
    "multipart/form-data; boundary=zz",
    "multipart/form-data; boundary=zz",
    "multipart/form-data",
    'multipart/form-data; boundary="zz',
  ]);
  return { kind: "multipart", method: "POST", path, headers: { "Content-Type": contentType }, body };
}
