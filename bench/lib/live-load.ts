import http from "node:http";
import { TRAFFIC_ENTITY_CONTEXT } from "../../src/domain/vocabulary";

/** Helpers of bench/live.ts: JSON requests, the documents it writes, percentiles. */

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** POSTs JSON on a connection of its own; rejects on a status of 300 or more. */
export function postJson(
  base: string,
  path: string,
  body: unknown,
  type = "application/json",
): Promise<string> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      base + path,
      {
        method: "POST",
        agent: false,
        headers: { "content-type": type, "content-length": Buffer.byteLength(data) },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () =>
          (res.statusCode ?? 0) < 300
            ? resolve(text)
            : reject(new Error(`${path}: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

/** A severe accident in Quận 1, now. */
export function accidentDoc(id: string): Record<string, unknown> {
  return {
    id: `urn:ngsi-ld:TrafficAccident:${id}`,
    type: "TrafficAccident",
    timestamp: { type: "Property", value: { "@type": "DateTime", "@value": new Date().toISOString() } },
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7009, 10.7769] } },
    severity: { type: "Property", value: "severe" },
    status: { type: "Property", value: "active" },
    vehiclesInvolved: { type: "Property", value: 2 },
    injuries: { type: "Property", value: 1 },
    fatalities: { type: "Property", value: 0 },
    refCamera: { type: "Relationship", object: "urn:ngsi-ld:TrafficCamera:0" },
    "@context": [...TRAFFIC_ENTITY_CONTEXT],
  };
}

let cameras: { id: string; lat: number; lon: number }[] | undefined;

/** One flow observation per camera of the service (read once through GraphQL), observed `round` minutes ago. */
export async function flowDocs(base: string, round: number): Promise<Record<string, unknown>[]> {
  if (!cameras) {
    cameras = [];
    for (let offset = 0; ; offset += 100) {
      const text = await postJson(base, "/graphql", {
        query: `{ cameras(limit: 100, offset: ${offset}) { edges { node { id location { lat lon } } } } }`,
      });
      const edges = (
        JSON.parse(text) as {
          data: { cameras: { edges: { node: { id: string; location: { lat: number; lon: number } } }[] } };
        }
      ).data.cameras.edges;
      cameras.push(...edges.map((e) => ({ id: e.node.id, ...e.node.location })));
      if (edges.length < 100) break;
    }
  }
  const at = new Date(Date.now() - (6 - round) * 60_000).toISOString();
  return cameras.map((c, i) => ({
    id: `urn:ngsi-ld:TrafficFlowObserved:${c.id}`,
    type: "TrafficFlowObserved",
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [c.lon, c.lat] } },
    refCamera: { type: "Relationship", object: `urn:ngsi-ld:TrafficCamera:${c.id}` },
    dateObserved: { type: "Property", value: { "@type": "DateTime", "@value": at } },
    intensity: { type: "Property", value: 50 + ((i * 7 + round * 13) % 200), observedAt: at },
    averageVehicleSpeed: { type: "Property", value: 15 + ((i * 3 + round * 5) % 25), observedAt: at },
    "@context": [...TRAFFIC_ENTITY_CONTEXT],
  }));
}

/** The q-quantile of sorted values (nearest rank). */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}
