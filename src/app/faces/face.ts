import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type Router from "@koa/router";
import type { FaceMount } from "../../api/http/faces";
import type { RoutePermission } from "../../api/http/route-permissions";

/** A face of the service as the composition root mounts it: its prefix and renderer, and its routers. */
export interface Face {
  /** Where the face is mounted and how it renders errors; undefined for plain HTTP routes. */
  mount?: FaceMount;
  routers: Router[];
  /** WebSocket endpoints: the HTTP upgrade requests of `path` go to `handle`. */
  upgrades?: { path: string; handle(req: IncomingMessage, socket: Duplex, head: Buffer): void }[];
  /** What its routes need where the default permission table (api/http/route-permissions.ts) does not fit. */
  permissions?: RoutePermission[];
  /** Stops what the face started (sockets, timers). */
  close?(): Promise<void>;
}
