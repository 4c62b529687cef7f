import http from "node:http";
import https from "node:https";

/** The agents a POST goes through: keep-alive, one per scheme; the broker's check the outbound policy. */
export interface PostAgents {
  http: http.Agent;
  https: https.Agent;
}

const plainAgents: PostAgents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/**
 * POSTs a JSON text to `url` over keep-alive connections (`agents`, one per scheme, shared by every
 * alert delivery; a redirect is an answer, not followed) and resolves on a 2xx answer; throws on another status, a network error, or when
 * `timeoutMs` passes before the answer has been read. The body goes as a string with its
 * Content-Length, so Node writes the headers and the body in one socket write: an alert fan-out sends
 * thousands of small requests, and the writes are most of their cost.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  agents: PostAgents = plainAgents,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      reject(new Error(`not a URL: ${url}`));
      return;
    }
    const secure = u.protocol === "https:";
    if (!secure && u.protocol !== "http:") {
      reject(new Error(`not an http(s) URL: ${url}`));
      return;
    }
    const req = (secure ? https : http).request(u, {
      method: "POST",
      agent: secure ? agents.https : agents.http,
      headers: { "Content-Type": "application/json", ...headers, "Content-Length": Buffer.byteLength(body) },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.on("response", (res) => {
      res.on("error", () => undefined);
      res.resume();
      res.on("end", () => {
        clearTimeout(timer);
        const s = res.statusCode ?? 0;
        if (s >= 200 && s <= 299) resolve();
        else reject(new Error(`receiver answered HTTP ${s}`));
      });
    });
    req.end(body);
  });
}
