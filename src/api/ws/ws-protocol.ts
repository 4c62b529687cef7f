import { AppError, badRequest } from "../../errors";
import { LIVE_CHANNELS, LIVE_SEVERITIES, type LiveChannel } from "../../events/live-event";

/** A subscribe message (docs/graphql-and-websocket.md "Client messages"). */
export interface SubscribeCommand {
  type: "subscribe";
  /** The client's name for the subscription (echoed in its messages); generated when absent. */
  id?: string;
  channels: LiveChannel[];
  /** Zone ids of the traffic channel; absent = every zone. */
  zones?: string[];
  /** Severities of the accidents channel; absent = every severity. */
  severity?: string[];
  /** Epoch ms: replay the events since then from the history before live ones. */
  since?: number;
}

/** The client messages. */
export type ClientCommand =
  SubscribeCommand | { type: "unsubscribe"; id?: string; channels?: LiveChannel[] } | { type: "ping" };

/** Most zones or severities one subscribe may name. */
export const MAX_KEYS = 100;

/** Parses one text frame into a command; throws AppError (INVALID_REQUEST / INVALID_PARAMETER) otherwise. */
export function parseCommand(text: string): ClientCommand {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    throw new AppError("InvalidRequest", "A message must be a JSON object");
  }
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) {
    throw new AppError("InvalidRequest", "A message must be a JSON object");
  }
  const m = msg as Record<string, unknown>;
  switch (m.type) {
    case "subscribe":
      return {
        type: "subscribe",
        id: optionalId(m.id),
        channels: channels(m.channels, true) as LiveChannel[],
        zones: strings(m.zones, "zones"),
        severity: severities(m.severity),
        since: since(m.since),
      };
    case "unsubscribe":
      return { type: "unsubscribe", id: optionalId(m.id), channels: channels(m.channels, false) };
    case "ping":
      return { type: "ping" };
    default:
      throw new AppError(
        "InvalidRequest",
        `Unknown message type ${JSON.stringify(m.type)}: use subscribe, unsubscribe or ping`,
      );
  }
}

function optionalId(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !/^[\w.:-]{1,64}$/.test(v)) {
    throw badRequest("id must be 1 to 64 letters, digits, '_', '.', ':' or '-'", { parameter: "id" });
  }
  return v;
}

function channels(v: unknown, required: boolean): LiveChannel[] | undefined {
  if (v === undefined && !required) return undefined;
  if (!Array.isArray(v) || v.length === 0) {
    throw badRequest("channels must be a non-empty array", {
      parameter: "channels",
      expected: LIVE_CHANNELS,
    });
  }
  for (const c of v) {
    if (!(LIVE_CHANNELS as readonly unknown[]).includes(c)) {
      throw badRequest(`Unknown channel ${JSON.stringify(c)}`, {
        parameter: "channels",
        value: c,
        expected: LIVE_CHANNELS,
      });
    }
  }
  return [...new Set(v as LiveChannel[])];
}

function strings(v: unknown, name: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > MAX_KEYS || v.some((s) => typeof s !== "string" || s.length > 200)) {
    throw badRequest(`${name} must be an array of at most ${MAX_KEYS} strings`, { parameter: name });
  }
  return v as string[];
}

function severities(v: unknown): string[] | undefined {
  const list = strings(v, "severity");
  if (!list) return undefined;
  const out = list.map((s) => s.toLowerCase());
  for (const s of out) {
    if (!(LIVE_SEVERITIES as readonly string[]).includes(s)) {
      throw badRequest(`Unknown severity ${JSON.stringify(s)}`, {
        parameter: "severity",
        value: s,
        expected: LIVE_SEVERITIES,
      });
    }
  }
  return out;
}

function since(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  const t = typeof v === "string" ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) {
    throw badRequest("since must be an ISO 8601 date-time", { parameter: "since", value: v });
  }
  return t;
}
