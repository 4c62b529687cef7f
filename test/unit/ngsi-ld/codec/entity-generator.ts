import type { JsonValue, NgsiEntity } from "../../../../src/ngsi-ld/codec";

/**
 * A seeded generator of validated, normalized NGSI-LD entities (ETSI GS CIM 009 §4.5) covering the
 * eight attribute kinds, sub-attributes two levels deep, multi-instance attributes with datasetIds,
 * value objects, structured values and the four ways to name a type or an attribute.
 */
export class Rng {
  constructor(private s: number) {}
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

type Obj = { [k: string]: JsonValue };
const KINDS = [
  "Property",
  "Relationship",
  "GeoProperty",
  "LanguageProperty",
  "VocabProperty",
  "JsonProperty",
  "ListProperty",
  "ListRelationship",
] as const;
const ETSI_TERMS = ["speed", "name", "brandName", "fuelLevel", "airQualityLevel", "source", "subCategory"];
const CORE_NAMES = [
  "description",
  "title",
  "status",
  "ngsi-ld:custom",
  "https://example.org/attr/weight",
  "http://schema.org/color",
];
const VOCAB_NAMES = [
  "temperature",
  "lanes",
  "camState",
  "flowRate",
  "road_name",
  "vehicle-count",
  "occupancy",
];
const TYPES_CORE = [
  "TrafficCamera",
  "RoadSegment",
  "ngsi-ld:Thing",
  "https://schema.org/Car",
  "http://example.org/types#Zone",
  "Subscription",
];
const TYPES_ETSI = ["Vehicle", "Building", "OffStreetParking"];
const STRINGS = ["active", "Nguyễn Huệ", 'quote " and \\ back', "line\nbreak", "tab\tx", "emoji 🚦", "", "5"];
const NUMBERS = [0, 1, -7, 42, 1.5, -0.25, 23.7, 106.69, 1e21, 123456789];
const DATES = ["2024-03-01T10:00:00Z", "2025-12-31T23:59:59.123Z"];
const URIS = [
  "urn:ngsi-ld:Camera:1",
  "urn:ngsi-ld:Road:A-2",
  "https://example.org/things/9",
  "ngsi-ld:local/x",
];
const VOCABS = ["green", "Building", "ngsi-ld:Red", "https://example.org/v/amber", "Property"];
const STRUCT_KEYS = ["streetAddress", "addressLocality", "postalCode", "floors", "lanes", "hours"];

/** Generates entity `i`; `etsi` adds the ETSI test-suite terms. */
export function generateEntity(rng: Rng, i: number, etsi: boolean): NgsiEntity {
  const types = etsi ? [...TYPES_CORE, ...TYPES_ETSI] : TYPES_CORE;
  const id = rng.chance(0.05)
    ? `https://uri.etsi.org/ngsi-ld/default-context/e${i}`
    : `urn:ngsi-ld:Thing:${i}`;
  const e: NgsiEntity = {
    id,
    type: rng.chance(0.15) ? [rng.pick(types), `Extra${rng.int(3)}`] : rng.pick(types),
  };
  if (rng.chance(0.3)) e.scope = rng.chance(0.5) ? "/Madrid/Gardens" : ["/HCMC/D1", "/HCMC/D3"];
  if (rng.chance(0.4)) {
    e.createdAt = DATES[0];
    e.modifiedAt = DATES[1];
  }
  const names = new Set<string>();
  const pool = etsi ? [...ETSI_TERMS, ...CORE_NAMES, ...VOCAB_NAMES] : [...CORE_NAMES, ...VOCAB_NAMES];
  const n = 1 + rng.int(8);
  while (names.size < n) names.add(rng.pick(pool));
  if (rng.chance(0.3)) names.add("location");
  for (const name of names) {
    const kind = name === "location" ? "GeoProperty" : rng.pick(KINDS);
    if (rng.chance(0.2)) {
      const count = 2 + rng.int(2);
      const list: Obj[] = [];
      for (let d = 0; d < count; d++) {
        const inst = instance(rng, kind, 0);
        if (d > 0 || rng.chance(0.5)) inst.datasetId = `urn:ngsi-ld:Dataset:${name}-${d}`;
        list.push(inst);
      }
      e[name] = list;
    } else e[name] = instance(rng, kind, 0);
  }
  return e;
}

function instance(rng: Rng, kind: (typeof KINDS)[number], depth: number): Obj {
  const inst: Obj = { type: kind };
  switch (kind) {
    case "Property":
      inst.value = propertyValue(rng);
      break;
    case "Relationship":
      inst.object = rng.chance(0.2) ? [URIS[0], URIS[2]] : rng.pick(URIS);
      break;
    case "GeoProperty":
      inst.value = geometry(rng);
      break;
    case "LanguageProperty":
      inst.languageMap = rng.chance(0.5)
        ? { en: "Road", vi: "Đường" }
        : { en: ["A", "B"], "@none": "plain", "fr-CA": "Rue" };
      break;
    case "VocabProperty":
      inst.vocab = rng.chance(0.3) ? [VOCABS[0], VOCABS[3]] : rng.pick(VOCABS);
      break;
    case "JsonProperty":
      inst.json = rng.chance(0.5)
        ? { a: [1, 2.5, null, { b: "x" }], "k y": true, z: { type: "Point" } }
        : [rng.pick(STRINGS), rng.int(100)];
      break;
    case "ListProperty":
      inst.valueList = [rng.pick(NUMBERS), rng.pick(STRINGS), true, rng.pick(NUMBERS), "z"];
      break;
    case "ListRelationship":
      inst.objectList = rng.chance(0.7)
        ? [{ object: URIS[0] }, { object: URIS[1] }, { object: URIS[0] }]
        : [URIS[2], URIS[1]];
      break;
  }
  if (rng.chance(0.3)) inst.observedAt = rng.pick(DATES);
  if (rng.chance(0.2)) inst.unitCode = "KMH";
  if (rng.chance(0.1)) inst.instanceId = `urn:ngsi-ld:Instance:${rng.int(1000)}`;
  if (rng.chance(0.1)) {
    inst.createdAt = DATES[0];
    inst.modifiedAt = DATES[1];
  }
  if (depth < 2 && rng.chance(0.35)) {
    const subs = 1 + rng.int(2);
    for (let s = 0; s < subs; s++)
      inst[
        rng.pick(["provider", "quality", "https://example.org/attr/accuracy", "ngsi-ld:sub"]) +
          (s > 0 ? s : "")
      ] = instance(rng, rng.pick(KINDS), depth + 1);
  }
  return inst;
}

function propertyValue(rng: Rng): JsonValue {
  switch (rng.int(8)) {
    case 0:
      return rng.pick(STRINGS);
    case 1:
      return rng.pick(NUMBERS);
    case 2:
      return rng.chance(0.5);
    case 3:
      return { "@type": "DateTime", "@value": rng.pick(DATES) };
    case 4:
      return { "@value": rng.pick(STRINGS), "@language": rng.pick(["en", "vi", "EN-gb"]) };
    case 5:
      return structured(rng, 0);
    case 6:
      return [rng.pick(STRINGS.slice(0, 3)), 17, 2.5, false];
    default:
      return [rng.pick(NUMBERS)];
  }
}

function structured(rng: Rng, depth: number): Obj {
  const o: Obj = {};
  if (rng.chance(0.4)) o.type = "PostalAddress";
  const n = 1 + rng.int(3);
  for (let i = 0; i < n; i++) {
    const k = STRUCT_KEYS[(i + rng.int(2)) % STRUCT_KEYS.length];
    o[k] =
      depth < 1 && rng.chance(0.3)
        ? structured(rng, depth + 1)
        : rng.chance(0.3)
          ? ["x", "y", 3]
          : rng.pick([...STRINGS, ...NUMBERS.map(String)]);
  }
  return o;
}

function geometry(rng: Rng): Obj {
  switch (rng.int(3)) {
    case 0:
      return { type: "Point", coordinates: [106.69 + rng.int(100) / 1000, 10.79] };
    case 1:
      return {
        type: "LineString",
        coordinates: [
          [106.6, 10.7],
          [106.7, 10.8, 12],
        ],
      };
    default:
      return {
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      };
  }
}
