import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import WebSocket from "ws";
import { Receiver } from "../helpers/receiver";
import { http as call, startTestApp, type TestApp } from "../helpers/test-app";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE_ID}-${CALLER_SPAN}-01`;
const CORE = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

/** A tiny OTLP/HTTP (JSON) collector: keeps every span POSTed to /v1/traces. */
async function otlpReceiver(): Promise<{ url: string; spans: OtlpSpan[]; close(): Promise<void> }> {
  const spans: OtlpSpan[] = [];
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        const body = JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      }
      res.setHeader("Content-Type", "application/json");
      res.end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Subscribes `rx` to Things and creates one with `headers`; returns the receiver's first notification headers. */
async function notifiedHeaders(app: TestApp, rx: Receiver, id: string, headers: Record<string, string>) {
  const sub = await call(
    app.url,
    "POST",
    "/ngsi-ld/v1/subscriptions",
    {
      type: "Subscription",
      entities: [{ type: "Thing" }],
      notification: { endpoint: { uri: rx.url } },
      "@context": CORE,
    },
    { "Content-Type": "application/ld+json" },
  );
  expect(sub.status, sub.text).to.equal(201);
  const made = await call(
    app.url,
    "POST",
    "/ngsi-ld/v1/entities",
    { id, type: "Thing", name: { type: "Property", value: "x" }, "@context": CORE },
    { "Content-Type": "application/ld+json", ...headers },
  );
  expect(made.status, made.text).to.equal(201);
  expect(await rx.until(() => rx.received.length >= 1)).to.equal(true);
  return rx.received[0].headers;
}

describe("traces: W3C traceparent and the OTLP export", function () {
  this.timeout(60_000);

  it("sends a notification caused by a traced write with a traceparent of the same trace", async () => {
    const app = await startTestApp();
    const rx = await new Receiver().start();
    try {
      const headers = await notifiedHeaders(app, rx, "urn:ngsi-ld:Thing:t1", { traceparent: TRACEPARENT });
      const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(headers.traceparent));
      expect(m, String(headers.traceparent)).to.not.equal(null);
      expect(m?.[1]).to.equal(TRACE_ID);
      expect(m?.[2]).to.not.equal(CALLER_SPAN); // the broker's own span is the parent: a child of the caller's
    } finally {
      await rx.stop();
      await app.destroy();
    }
  });

  it("sends no traceparent for an untraced write and ignores a malformed one", async () => {
    const app = await startTestApp();
    const rx = await new Receiver().start();
    try {
      const headers = await notifiedHeaders(app, rx, "urn:ngsi-ld:Thing:t2", { traceparent: "00-zz-bad-01" });
      expect(headers.traceparent).to.equal(undefined);
    } finally {
      await rx.stop();
      await app.destroy();
    }
  });

  it("exports the request's span over OTLP/HTTP, child of the caller's span, parent of the notification", async () => {
    const collector = await otlpReceiver();
    const app = await startTestApp({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
    const rx = await new Receiver().start();
    try {
      const headers = await notifiedHeaders(app, rx, "urn:ngsi-ld:Thing:t3", { traceparent: TRACEPARENT });
      const sentParent = String(headers.traceparent).split("-")[2];
      const deadline = Date.now() + 15_000;
      const wanted = () => collector.spans.find((s) => s.name === "POST /ngsi-ld/v1/entities");
      while (!wanted() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const span = wanted();
      expect(span, JSON.stringify(collector.spans.map((s) => s.name))).to.not.equal(undefined);
      expect(span?.traceId).to.equal(TRACE_ID);
      expect(span?.parentSpanId).to.equal(CALLER_SPAN);
      expect(span?.spanId).to.equal(sentParent);
      const status = span?.attributes.find((a) => a.key === "http.response.status_code")?.value.intValue;
      expect(Number(status)).to.equal(201);
      // a request without a traceparent starts a trace of its own
      const root = collector.spans.find((s) => s.name === "POST /ngsi-ld/v1/subscriptions");
      expect(root, "the subscription request's span").to.not.equal(undefined);
      expect(root?.parentSpanId ?? "").to.equal("");
    } finally {
      await rx.stop();
      await app.destroy();
      await collector.close();
    }
  });

  it("makes a WebSocket connection one span of the caller's trace, from the upgrade to the close", async () => {
    const collector = await otlpReceiver();
    const app = await startTestApp({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
    try {
      const socket = new WebSocket(`${app.url.replace("http", "ws")}/ws`, {
        headers: { traceparent: TRACEPARENT },
      });
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("error", reject);
      });
      socket.close();
      const deadline = Date.now() + 15_000;
      const wanted = () => collector.spans.find((s) => s.name === "GET /ws");
      while (!wanted() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const span = wanted();
      expect(span, JSON.stringify(collector.spans.map((s) => s.name))).to.not.equal(undefined);
      expect(span?.traceId).to.equal(TRACE_ID);
      expect(span?.parentSpanId).to.equal(CALLER_SPAN);
      const protocol = span?.attributes.find((a) => a.key === "network.protocol.name")?.value.stringValue;
      expect(protocol).to.equal("websocket");
    } finally {
      await app.destroy();
      await collector.close();
    }
  });
});
