import type { LiveAuth } from "../../api/http/live-auth";
import { LiveSocketServer } from "../../api/ws/live-socket-server";
import type { Config } from "../../config/config";
import type { Logger } from "../../log/logger";
import type { Metrics } from "../../observability/metrics";
import type { LiveParts } from "../live";
import type { Face } from "./face";

/** The WebSocket face at `/ws` (traffic-service-interface.md §6): push of the live events. */
export function wsFace(config: Config, log: Logger, live: LiveParts, auth: LiveAuth, metrics: Metrics): Face {
  const server = new LiveSocketServer({
    bus: live.bus,
    replay: live.replay,
    auth,
    limits: {
      maxSubscriptions: config.live.maxSubscriptions,
      queueMessages: config.live.queueMessages,
      messagesPerSecond: config.live.messagesPerSecond,
      onDrop: () => metrics.socketDropped("ws"),
    },
    heartbeatMs: config.live.heartbeatMs,
    maxFrameBytes: config.live.maxFrameBytes,
    log: (level, msg, fields) => log.log(level, msg, fields),
  });
  metrics.addSources({ sockets: () => ({ ws: server.size }) });
  return {
    routers: [],
    upgrades: [{ path: "/ws", handle: (req, socket, head) => server.handleUpgrade(req, socket, head) }],
    close: () => server.close(),
  };
}
