import IORedis from "ioredis";
import type { HealthProbe } from "../api/http/health-routes";
import type { Config } from "../config/config";
import type { Logger } from "../log/logger";
import { noMetrics, type Metrics } from "../observability/metrics";
import { prometheusMetrics, type PrometheusMetrics } from "../observability/prometheus-metrics";
import { Readiness } from "../observability/readiness";
import type { SpanSink } from "../observability/span-sink";

/** What operators see of the service: metrics, readiness, the health probes and the trace export. */
export interface Operations {
  /** Where the parts report (a no-op with METRICS=off). */
  metrics: Metrics;
  /** The text `/metrics` serves; undefined with METRICS=off. */
  exposition?: PrometheusMetrics;
  readiness: Readiness;
  /** Extra dependencies `/health` asks (Redis when configured). */
  probes: Record<string, HealthProbe>;
  /** The OTLP export; undefined without OTEL_EXPORTER_OTLP_ENDPOINT. */
  spans?: SpanSink;
  close(): Promise<void>;
}

/**
 * Builds the metrics registry (METRICS), the readiness checks, the Redis probe (REDIS_URL) and, only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, the OTLP export with the OpenTelemetry SDK (loaded then, not before).
 */
export async function startOperations(config: Config, log: Logger): Promise<Operations> {
  const ops = config.operations;
  const exposition = ops.metrics ? prometheusMetrics() : undefined;
  const readiness = new Readiness();
  const probes: Record<string, HealthProbe> = {};
  let redis: IORedis | undefined;
  if (config.redisUrl) {
    redis = new IORedis(config.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      enableOfflineQueue: true,
    });
    redis.on("error", () => undefined); // the probe reports it
    const client = redis;
    probes.redis = async () => {
      const answer = await Promise.race([
        client.ping(),
        new Promise<string>((_, reject) =>
          setTimeout(() => reject(new Error("no answer in 2 s")), 2000).unref(),
        ),
      ]);
      return { ok: answer === "PONG" };
    };
    readiness.add("redis", async () => (await probes.redis()).ok);
  }
  const spans = ops.otlpEndpoint
    ? await (await import("../observability/otlp-export")).otlpExport(ops.otlpEndpoint, log)
    : undefined;
  if (exposition) exposition.addSources({ readiness: () => readiness.states() });
  return {
    metrics: exposition ?? noMetrics,
    exposition,
    readiness,
    probes,
    spans,
    close: async () => {
      await spans?.close();
      redis?.disconnect();
    },
  };
}
