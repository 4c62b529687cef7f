import { ConfigError } from "./config-error";
import { intVar, switchVar, urlVar } from "./env-readers";

/** Metrics, shutdown and traces (docs/operations.md). */
export interface OperationsConfig {
  /** Collect and serve Prometheus metrics at `/metrics`. Env `METRICS` (on/off), default on. */
  metrics: boolean;
  /** Static bearer token a scraper may use for `/metrics` besides an admin's token. Env `METRICS_TOKEN`. */
  metricsToken?: string;
  /** Longest wait for in-flight requests after SIGTERM, ms. Env `SHUTDOWN_GRACE_MS`, default 10,000. */
  shutdownGraceMs: number;
  /** OTLP/HTTP collector that receives spans; unset = no export. Env `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  otlpEndpoint?: string;
}

/** Reads the operations settings from `env`. */
export function operationsConfig(env: NodeJS.ProcessEnv): OperationsConfig {
  const token = env.METRICS_TOKEN?.trim() || undefined;
  if (token !== undefined && token.length < 16)
    throw new ConfigError("METRICS_TOKEN must be at least 16 characters");
  return {
    metrics: switchVar(env, "METRICS", true),
    metricsToken: token,
    shutdownGraceMs: intVar(env, "SHUTDOWN_GRACE_MS", 10_000, 0, 600_000),
    otlpEndpoint: urlVar(env, "OTEL_EXPORTER_OTLP_ENDPOINT", ["http:", "https:"]),
  };
}
