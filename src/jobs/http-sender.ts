import http from "node:http";
import https from "node:https";
import fetch, { FetchError } from "node-fetch";
import type { PostAgents } from "./json-post";
import type { NotificationJob } from "./notification-job";

const plainAgents: PostAgents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/**
 * Sends a notification by HTTP POST (ETSI GS CIM 009 v1.8 §7.2 / GS CIM 004 HTTP binding) with node-fetch
 * over keep-alive connections (`agents`: the outbound policy's, which check each connection). Resolves on a 2xx answer; throws on any other status (a redirect too), a network error or
 * when `timeoutMs` passes before the answer's body is read (node-fetch's `timeout`: the request is then
 * aborted).
 */
export async function sendHttp(
  job: NotificationJob,
  timeoutMs: number,
  agents: PostAgents = plainAgents,
): Promise<void> {
  try {
    const res = await fetch(job.uri, {
      method: "POST",
      headers: job.traceparent ? { ...job.headers, traceparent: job.traceparent } : job.headers,
      body: job.body,
      agent: (u) => (u.protocol === "https:" ? agents.https : agents.http),
      timeout: timeoutMs,
      // a redirect is an answer, not followed: it could lead where the outbound policy refuses
      redirect: "manual",
    });
    await res.arrayBuffer();
    if (res.status < 200 || res.status > 299) throw new Error(`receiver answered HTTP ${res.status}`);
  } catch (e) {
    if (e instanceof FetchError && /timeout/.test(e.type))
      throw new Error(`no answer within ${timeoutMs} ms`);
    throw e;
  }
}
