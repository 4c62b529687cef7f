import type { LiveEvent } from "./live-event";
import type { LiveFilter } from "./subscriber-index";

/** What a resume replays: the events a filter selects since a time, oldest first, at most `limit`. */
export interface ReplayResult {
  events: LiveEvent[];
  /** True when more events matched than `limit` (the newest `limit` are given). */
  truncated: boolean;
}

/** The history a resuming subscriber reads its missed events from (src/domain/live). */
export type LiveReplay = (filter: LiveFilter, sinceMs: number, limit: number) => Promise<ReplayResult>;

/** A replay of nothing (no history source). */
export const NO_REPLAY: LiveReplay = async () => ({ events: [], truncated: false });
