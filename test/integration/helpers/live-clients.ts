import http from "node:http";
import WebSocket from "ws";
import { TRAFFIC_ENTITY_CONTEXT } from "../../../src/domain/vocabulary";

/** A `/ws` client that records every JSON message and waits for the ones a test expects. */
export class WsProbe {
  readonly messages: Record<string, unknown>[] = [];
  closed?: { code: number; reason: string };
  private waiters: (() => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on("message", (d) => {
      this.messages.push(JSON.parse(d.toString()) as Record<string, unknown>);
      this.wake();
    });
    ws.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    ws.on("error", () => undefined);
  }

  /** Opens a socket on `url` (http:// is turned into ws://). */
  static async open(url: string, options: WebSocket.ClientOptions = {}, protocol?: string): Promise<WsProbe> {
    const ws = new WebSocket(url.replace(/^http/, "ws"), protocol, options);
    const probe = new WsProbe(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
      ws.once("close", () => resolve());
    });
    return probe;
  }

  /** Opens a graphql-ws socket (protocol graphql-transport-ws) on `base`/graphql, initialised and acknowledged. */
  static async graphqlWs(base: string): Promise<WsProbe> {
    const probe = await WsProbe.open(`${base}/graphql`, {}, "graphql-transport-ws");
    probe.send({ type: "connection_init" });
    await probe.next((m) => m.type === "connection_ack");
    return probe;
  }

  send(msg: unknown): void {
    this.ws.send(typeof msg === "string" ? msg : JSON.stringify(msg));
  }

  /** The messages matching `pred`. */
  matching(pred: (m: Record<string, unknown>) => boolean): Record<string, unknown>[] {
    return this.messages.filter(pred);
  }

  /** Resolves with the first message matching `pred` (waits up to `ms`). */
  async next(pred: (m: Record<string, unknown>) => boolean, ms = 5000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = this.messages.find(pred);
      if (hit) return hit;
      if (Date.now() > deadline)
        throw new Error(
          `no matching message within ${ms} ms; got ${JSON.stringify(this.messages).slice(0, 800)}`,
        );
      await this.wait(deadline - Date.now());
    }
  }

  /** Resolves once the socket is closed (waits up to `ms`). */
  async closedWith(ms = 5000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + ms;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error(`socket still open after ${ms} ms`);
      await this.wait(deadline - Date.now());
    }
    return this.closed;
  }

  close(): void {
    this.ws.terminate();
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, Math.max(1, ms));
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}

/** POSTs a GraphQL operation; resolves with the status and the parsed body. */
export async function gql(
  base: string,
  query: string,
  variables?: Record<string, unknown>,
  extensions?: Record<string, unknown>,
): Promise<{
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
}> {
  const r = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query, variables, extensions }),
  });
  return { status: r.status, body: (await r.json()) as never };
}

/** A TrafficAccident entity document in the traffic context. */
export function accidentDoc(
  id: string,
  severity: string,
  lat: number,
  lon: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: `urn:ngsi-ld:TrafficAccident:${id}`,
    type: "TrafficAccident",
    timestamp: { type: "Property", value: { "@type": "DateTime", "@value": new Date().toISOString() } },
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [lon, lat] } },
    severity: { type: "Property", value: severity },
    status: { type: "Property", value: "active" },
    vehiclesInvolved: { type: "Property", value: 2 },
    injuries: { type: "Property", value: 1 },
    fatalities: { type: "Property", value: 0 },
    refCamera: { type: "Relationship", object: "urn:ngsi-ld:TrafficCamera:0" },
    "@context": [...TRAFFIC_ENTITY_CONTEXT],
    ...extra,
  };
}

/** A TrafficFlowObserved of camera `cameraId` observed now. */
export function flowDoc(
  cameraId: string,
  lat: number,
  lon: number,
  speed: number,
  intensity: number,
): Record<string, unknown> {
  const at = new Date().toISOString();
  return {
    id: `urn:ngsi-ld:TrafficFlowObserved:${cameraId}`,
    type: "TrafficFlowObserved",
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [lon, lat] } },
    refCamera: { type: "Relationship", object: `urn:ngsi-ld:TrafficCamera:${cameraId}` },
    dateObserved: { type: "Property", value: { "@type": "DateTime", "@value": at } },
    intensity: { type: "Property", value: intensity, observedAt: at },
    averageVehicleSpeed: { type: "Property", value: speed, observedAt: at },
    "@context": [...TRAFFIC_ENTITY_CONTEXT],
  };
}

/** A WeatherObserved of a station observed now. */
export function weatherDoc(station: string, temperature: number): Record<string, unknown> {
  return {
    id: `urn:ngsi-ld:WeatherObserved:${station}`,
    type: "WeatherObserved",
    name: { type: "Property", value: station },
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7, 10.78] } },
    dateObserved: { type: "Property", value: { "@type": "DateTime", "@value": new Date().toISOString() } },
    temperature: { type: "Property", value: temperature },
    relativeHumidity: { type: "Property", value: 0.7 },
    "@context": [...TRAFFIC_ENTITY_CONTEXT],
  };
}

/**
 * Upserts entity documents through the NGSI-LD batch upsert, on a connection of its own that closes
 * after the answer (no idle keep-alive connection outlives the test).
 */
export async function upsert(base: string, docs: Record<string, unknown>[]): Promise<void> {
  const body = JSON.stringify(docs);
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      `${base}/ngsi-ld/v1/entityOperations/upsert`,
      {
        method: "POST",
        agent: false,
        headers: { "content-type": "application/ld+json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let t = "";
        res.on("data", (c: Buffer) => (t += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: t }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
  if (status >= 300) throw new Error(`upsert ${status}: ${text}`);
}

/** Coordinates inside Quận 1 (zone quan-1) and inside Quận 12 (quan-12). */
export const QUAN_1 = { lat: 10.7769, lon: 106.7009 };
export const QUAN_12 = { lat: 10.8797, lon: 106.678 };
