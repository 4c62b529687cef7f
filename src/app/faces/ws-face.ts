import { renderProblem } from "../../api/http/faces";
import type { LiveAuth } from "../../api/http/live-auth";
import { LiveSocketServer } from "../../api/ws/live-socket-server";
import type { Config } from "../../config/config";
import type { Logger } from "../../log/logger";
import type { Metrics } from "../../observability/metrics";
import type { LiveParts } from "../live";
import type { Face } from "./face";

/**
 * The WebSocket face at `/ws` (docs/graphql-and-websocket.md): push of the live events. Its mount marks
 * plain HTTP requests to `/ws` as the face's, so the request pipeline applies its tenant rule to them too.
 */
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
    mount: { name: "ws", prefixes: ["/ws"], renderError: renderProblem },
    routers: [],
    upgrades: [{ path: "/ws", handle: (req, socket, head) => server.handleUpgrade(req, socket, head) }],
    close: () => server.close(),
  };
}
