import type { Logger } from "../log/logger";
import { redactUrl } from "../log/redact-url";
import type { FinishedSpan, SpanSink } from "./span-sink";

/**
 * The OTLP/HTTP export of spans (docs/operations.md "Traces") to `endpoint` (`OTEL_EXPORTER_OTLP_ENDPOINT`; spans
 * go to `<endpoint>/v1/traces`). The OpenTelemetry SDK is loaded here, only when an endpoint is set: without
 * one the service neither loads nor runs any of it. Spans keep the ids the request pipeline gave them (the
 * ones outbound `traceparent` headers carry), through an id generator that hands the SDK those ids.
 */
export async function otlpExport(endpoint: string, log: Logger): Promise<SpanSink> {
  const api = await import("@opentelemetry/api");
  const sdk = await import("@opentelemetry/sdk-trace-base");
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  const { resourceFromAttributes } = await import("@opentelemetry/resources");
  const next = { traceId: "", spanId: "" };
  const provider = new sdk.BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "citygraph" }),
    idGenerator: { generateTraceId: () => next.traceId, generateSpanId: () => next.spanId },
    spanProcessors: [
      new sdk.BatchSpanProcessor(
        new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/traces` }),
        {
          scheduledDelayMillis: 1000,
        },
      ),
    ],
  });
  const tracer = provider.getTracer("citygraph");
  // the endpoint may carry the collector's credentials as userinfo: they stay out of the log
  log.info("trace export on", { endpoint: redactUrl(endpoint) });
  return {
    record(s: FinishedSpan) {
      next.traceId = s.traceId;
      next.spanId = s.spanId;
      const parent = s.parentSpanId
        ? api.trace.setSpanContext(api.ROOT_CONTEXT, {
            traceId: s.traceId,
            spanId: s.parentSpanId,
            traceFlags: api.TraceFlags.SAMPLED,
            isRemote: true,
          })
        : api.ROOT_CONTEXT;
      const span = tracer.startSpan(
        s.name,
        { kind: api.SpanKind.SERVER, startTime: s.startMs, attributes: s.attributes },
        parent,
      );
      if (s.error) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end(s.endMs);
    },
    close: async () => {
      await provider.forceFlush().catch(() => undefined);
      await provider.shutdown().catch(() => undefined);
    },
  };
}
