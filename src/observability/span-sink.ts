/** One finished span of this service (a request it served), as the trace export receives it. */
export interface FinishedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** e.g. "GET /ngsi-ld/v1/entities/:entityId" (the route template, never a raw path). */
  name: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number>;
  /** True for a 5xx. */
  error: boolean;
}

/** Where finished spans go (the OTLP export when it is configured). */
export interface SpanSink {
  record(span: FinishedSpan): void;
  /** Sends what is buffered and stops. */
  close(): Promise<void>;
}
