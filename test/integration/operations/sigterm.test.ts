import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import WebSocket from "ws";
import { freePort, startServer } from "../helpers/child-server";
import { http, linkTo, TEST_CONTEXT } from "../helpers/test-app";

const GRACE_MS = 5000;

const entity = (id: string, n: number) => ({
  id,
  type: "Vehicle",
  speed: { type: "Property", value: n },
  brandName: { type: "Property", value: `brand-${n}` },
});

/**
 * A clean restart: the service runs as a child process under a stream of writes and a WebSocket client, gets
 * SIGTERM, and exits 0 within SHUTDOWN_GRACE_MS; the clients see no 5xx but the drain's 503 (with
 * Retry-After), the socket closes with 1001, and after a restart every acknowledged write is there.
 */
describe("SIGTERM under write load", function () {
  this.timeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-sigterm-"));
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("drains, loses no acknowledged write, answers no 5xx but 503, exits 0 within the grace", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = await startServer(dataDir, port, { SHUTDOWN_GRACE_MS: String(GRACE_MS) });
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));

    const acked = new Map<string, number>();
    const refusals: string[] = [];
    const failures: string[] = [];
    let stop = false;
    let warmedUp!: () => void;
    const warm = new Promise<void>((r) => (warmedUp = r));
    const client = async (c: number) => {
      for (let i = 0; !stop; i++) {
        const id = `urn:ngsi-ld:Vehicle:t${c}n${i}`;
        let r;
        try {
          r = await http(base, "POST", "/ngsi-ld/v1/entities", entity(id, i), { Link: linkTo(TEST_CONTEXT) });
        } catch {
          return; // the server closed: not acknowledged
        }
        if (r.status === 201) {
          acked.set(id, i);
          if (acked.size === 20) warmedUp();
        } else if (r.status === 503) {
          refusals.push(r.headers.get("retry-after") ?? "none");
        } else failures.push(`${r.status} ${r.text}`);
      }
    };
    const clients = [0, 1, 2, 3, 4, 5].map(client);
    await warm;
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    const t0 = Date.now();
    child.kill("SIGTERM");
    const code = await exited;
    const ms = Date.now() - t0;
    stop = true;
    await Promise.all(clients);

    expect(code, "exit code").to.equal(0);
    expect(ms, "time to exit").to.be.below(GRACE_MS);
    expect(failures, "answers other than 201 and the drain's 503").to.deep.equal([]);
    expect(
      refusals.every((r) => r === "5"),
      `Retry-After of the 503s: ${refusals.join()}`,
    ).to.equal(true);
    expect(await closed, "WebSocket close code").to.equal(1001);

    const again = await startServer(dataDir, port);
    try {
      expect(acked.size).to.be.at.least(20);
      for (const [id, n] of acked) {
        const g = await http(base, "GET", `/ngsi-ld/v1/entities/${id}`, undefined, {
          Link: linkTo(TEST_CONTEXT),
        });
        expect(g.status, id).to.equal(200);
        expect(g.body).to.deep.equal(entity(id, n));
      }
    } finally {
      again.kill("SIGKILL");
    }
  });
});
