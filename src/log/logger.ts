import type { LogLevel } from "../config/config";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A structured logger writing one JSON line per event to stdout (stderr for warn/error). */
export interface Logger {
  debug(msg: string, fields?: object): void;
  info(msg: string, fields?: object): void;
  warn(msg: string, fields?: object): void;
  error(msg: string, fields?: object): void;
  /** The generic form, matching the store's `log` option. */
  log(level: LogLevel, msg: string, fields?: object): void;
}

/** Creates a JSON-lines logger that drops events below `level`. */
export function createLogger(level: LogLevel, name = "citygraph"): Logger {
  const min = RANK[level];
  const log = (lvl: LogLevel, msg: string, fields?: object): void => {
    if (RANK[lvl] < min) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: lvl, name, msg, ...fields });
    (RANK[lvl] >= RANK.warn ? process.stderr : process.stdout).write(line + "\n");
  };
  return {
    log,
    debug: (m, f) => log("debug", m, f),
    info: (m, f) => log("info", m, f),
    warn: (m, f) => log("warn", m, f),
    error: (m, f) => log("error", m, f),
  };
}
