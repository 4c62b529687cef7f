import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { SMTPServer } from "smtp-server";

/** EXIF of a phone photo taken in District 1: camera make, GPS position, orientation "rotate 90° CW". */
const EXIF = {
  IFD0: { Make: "TestPhone", Copyright: "private" },
  IFD3: {
    GPSLatitudeRef: "N",
    GPSLatitude: "10/1 46/1 3700/100",
    GPSLongitudeRef: "E",
    GPSLongitude: "106/1 42/1 300/100",
  },
};

/** True when an EXIF block carries the GPS IFD pointer tag (0x8825). */
export const hasGps = (exif: Buffer | undefined): boolean =>
  !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));

/** A real JPEG, 3000x2000, EXIF with GPS and orientation 6. */
export const phoneJpeg = (): Promise<Buffer> =>
  sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#c33" } })
    .withMetadata({ orientation: 6 })
    .withExif(EXIF)
    .jpeg()
    .toBuffer();

/** A real PNG, 2500x1500, EXIF (eXIf chunk) with GPS and orientation 6. */
export const phonePng = (): Promise<Buffer> =>
  sharp({ create: { width: 2500, height: 1500, channels: 3, background: "#3c3" } })
    .withMetadata({ orientation: 6 })
    .withExif(EXIF)
    .png()
    .toBuffer();

/** A small JPEG. */
export const smallJpeg = (): Promise<Buffer> =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: "#33c" } })
    .jpeg()
    .toBuffer();

/** The traffic @context of the service's own documents. */
export const TRAFFIC_CTX = [
  "https://w3id.org/citygraph/contexts/traffic.jsonld",
  "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld",
];

/** A TrafficAccident as a camera detection writes it (NGSI-LD, with @context). */
export function accidentDoc(
  id: string,
  lon: number,
  lat: number,
  severity: string,
  at = new Date(),
): Record<string, unknown> {
  return {
    id: `urn:ngsi-ld:TrafficAccident:${id}`,
    type: "TrafficAccident",
    timestamp: { type: "Property", value: { "@type": "DateTime", "@value": at.toISOString() } },
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [lon, lat] } },
    severity: { type: "Property", value: severity },
    status: { type: "Property", value: "active" },
    vehiclesInvolved: { type: "Property", value: 2 },
    injuries: { type: "Property", value: 1 },
    fatalities: { type: "Property", value: 0 },
    confidence: { type: "Property", value: 0.9 },
    detectionMethod: { type: "Property", value: "camera_vision" },
    "@context": TRAFFIC_CTX,
  };
}

/** A point `metres` north of (lon, lat). */
export const north = (lon: number, lat: number, metres: number): [number, number] => [
  lon,
  lat + metres / 111_320,
];

/** An HTTP receiver that records JSON bodies. */
export async function startReceiver(): Promise<{ url: string; bodies: unknown[]; close(): Promise<void> }> {
  const bodies: unknown[] = [];
  const server = http.createServer((req, res) => {
    let t = "";
    req.on("data", (c: Buffer) => (t += c.toString()));
    req.on("end", () => {
      try {
        bodies.push(JSON.parse(t));
      } catch {
        bodies.push(t);
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A real SMTP server (smtp-server) on a free port that keeps every message received. */
export async function startSmtp(): Promise<{
  url: string;
  mails: { to: string[]; text: string }[];
  close(): Promise<void>;
}> {
  const mails: { to: string[]; text: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, cb) {
      let t = "";
      stream.on("data", (c: Buffer) => (t += c.toString()));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text: t });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Waits until `check` is true (polling every 50 ms), or fails after `ms`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  ms = 8000,
  what = "condition",
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** How many CitizenReport entities the service at `base` holds (its NGSI-LD count). */
export async function storedReports(base: string): Promise<number> {
  const res = await fetch(`${base}/ngsi-ld/v1/entities?type=CitizenReport&count=true&limit=0`, {
    headers: {
      Link: `<${TRAFFIC_CTX[0]}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`,
    },
  });
  await res.arrayBuffer();
  return Number(res.headers.get("NGSILD-Results-Count") ?? "-1");
}
