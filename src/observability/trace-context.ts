import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";

/** The W3C trace context (https://www.w3.org/TR/trace-context/) of the work running now. */
export interface TraceContext {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** This service's span: 16 lowercase hex digits. */
  spanId: string;
  /** The caller's span, when the request carried a `traceparent`. */
  parentSpanId?: string;
  /** Trace flags, 2 hex digits ("01" = sampled). */
  flags: string;
}

const current = new AsyncLocalStorage<TraceContext>();
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The parts of a `traceparent` header, or undefined when it is absent or invalid (the spec says to start a
 * new trace then): version ff, an all-zero trace or parent id, or a version 00 header with extra fields.
 */
export function parseTraceparent(
  header: string | undefined,
): { traceId: string; parentSpanId: string; flags: string } | undefined {
  const m = header === undefined ? null : TRACEPARENT.exec(header.trim());
  if (!m || m[1] === "ff" || (m[1] === "00" && m[5] !== undefined)) return undefined;
  if (/^0+$/.test(m[2]) || /^0+$/.test(m[3])) return undefined;
  return { traceId: m[2], parentSpanId: m[3], flags: m[4] };
}

/** A new span id (8 random bytes as hex). */
export const newSpanId = (): string => randomBytes(8).toString("hex");
/** A new trace id (16 random bytes as hex). */
export const newTraceId = (): string => randomBytes(16).toString("hex");

/** Runs `fn` with `trace` as the current trace context (it follows the promises `fn` starts). */
export function runInTrace<T>(trace: TraceContext, fn: () => T): T {
  return current.run(trace, fn);
}

/** The trace context of the work running now, if it was started by a traced request. */
export function currentTrace(): TraceContext | undefined {
  return current.getStore();
}

/**
 * The `traceparent` an outbound request caused by the current work carries (a notification, an alert
 * webhook): the same trace, with this service's span as the parent; undefined outside a trace.
 */
export function outboundTraceparent(): string | undefined {
  const t = current.getStore();
  return t ? `00-${t.traceId}-${t.spanId}-${t.flags}` : undefined;
}
