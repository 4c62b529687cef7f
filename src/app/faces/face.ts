import type Router from "@koa/router";
import type { FaceMount } from "../../api/http/faces";

/** A face of the service as the composition root mounts it: its prefix and renderer, and its routers. */
export interface Face {
  /** Where the face is mounted and how it renders errors; undefined for plain HTTP routes. */
  mount?: FaceMount;
  routers: Router[];
  /** Stops what the face started (sockets, timers). */
  close?(): Promise<void>;
}
