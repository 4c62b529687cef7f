import type { RollupSeries } from "./rollup-series";
import type { Series } from "./series";

/** The history of one entity: its types and scope as last written, and one series per attribute IRI. */
export interface TemporalEntity {
  id: string;
  /** Expanded type IRIs. */
  types: string[];
  scope?: unknown;
  createdAt: number;
  modifiedAt: number;
  /** Attribute IRI -> instances (every datasetId together; the template says which). */
  attrs: Map<string, Series>;
  /** Attribute IRI -> the aggregates of instances that left the raw window (rollup.ts); none until then. */
  rollups?: Map<string, RollupSeries>;
}
