import { expect } from "chai";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, killDuring, startServer } from "../helpers/child-server";
import { http, linkTo, TEST_CONTEXT } from "../helpers/test-app";

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);

const entity = (id: string, n: number) => ({
  id,
  type: "Vehicle",
  speed: { type: "Property", value: n, observedAt: "2024-01-01T10:00:00Z" },
  brandName: { type: "Property", value: `brand-${n}` },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.6 + n / 1e6, 10.7] } },
});

/** The service as a child process on `dataDir`, and its address. */
async function start(dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  return { child: await startServer(dataDir, port), base: `http://127.0.0.1:${port}` };
}

/**
 * Acknowledged writes survive kill -9: the server runs as a child process, several concurrent clients write, the
 * process is SIGKILLed at a random moment, restarted, and every acknowledged entity is intact.
 */
describe("crash safety: kill -9 loses no acknowledged write", function () {
  this.timeout(120_000);

  it(`keeps every acknowledged entity over ${ROUNDS} random SIGKILLs`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-crash-"));
    const acked = new Map<string, number>();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const { child, base } = await start(dataDir);
        let stop = false;
        // The random kill window opens once this round has acknowledged a few writes, so that a slow
        // (loaded) machine still kills mid-stream rather than before the first acknowledgement.
        let ackedThisRound = 0;
        let warmedUp!: () => void;
        const warm = new Promise<void>((r) => (warmedUp = r));
        const client = async (c: number) => {
          for (let i = 0; !stop; i++) {
            const id = `urn:ngsi-ld:Vehicle:r${round}c${c}n${i}`;
            try {
              const r = await http(base, "POST", "/ngsi-ld/v1/entities", entity(id, i), {
                Link: linkTo(TEST_CONTEXT),
              });
              if (r.status === 201) {
                acked.set(id, i);
                if (++ackedThisRound === 5) warmedUp();
              }
            } catch {
              return; // connection reset by the kill
            }
          }
        };
        const clients = [0, 1, 2, 3, 4, 5].map(client);
        await killDuring(child, clients, () => (stop = true), 100, 700, warm);
      }
      const { child, base } = await start(dataDir);
      try {
        const health = await http(base, "GET", "/health");
        expect((health.body as { status: string }).status).to.equal("ok");
        expect(acked.size).to.be.greaterThan(10);
        for (const [id, n] of acked) {
          const g = await http(base, "GET", `/ngsi-ld/v1/entities/${id}`, undefined, {
            Link: linkTo(TEST_CONTEXT),
          });
          expect(g.status, id).to.equal(200);
          expect(g.body).to.deep.equal(entity(id, n));
        }
      } finally {
        child.kill("SIGKILL");
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it(`keeps every acknowledged batch upsert large enough for the bulk path over ${ROUNDS} random SIGKILLs`, async () => {
    // 600 entities of ~25 quads: past the store's bulk threshold, each batch replacing the same ids again
    const ids = Array.from({ length: 600 }, (_, k) => `urn:ngsi-ld:Vehicle:bulk${k}`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-crash-"));
    let acked = -1;
    let sent = 0;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const { child, base } = await start(dataDir);
        let stop = false;
        let warmedUp!: () => void;
        const warm = new Promise<void>((r) => (warmedUp = r));
        // one writer, so each batch is acknowledged after the one before it
        const writer = (async () => {
          while (!stop) {
            const n = sent++;
            try {
              const r = await http(
                base,
                "POST",
                "/ngsi-ld/v1/entityOperations/upsert",
                ids.map((id) => entity(id, n)),
                { Link: linkTo(TEST_CONTEXT) },
              );
              if (r.status === 201 || r.status === 204) {
                acked = n;
                warmedUp();
              }
            } catch {
              return; // connection reset by the kill
            }
          }
        })();
        await killDuring(child, [writer], () => (stop = true), 100, 1500, warm);
      }
      const { child, base } = await start(dataDir);
      try {
        expect(acked).to.be.at.least(0);
        // every entity whole, at the last acknowledged batch or a later one the kill cut off unanswered
        for (const id of [ids[0], ids[299], ids[599]]) {
          const g = await http(base, "GET", `/ngsi-ld/v1/entities/${id}`, undefined, {
            Link: linkTo(TEST_CONTEXT),
          });
          expect(g.status, id).to.equal(200);
          const n = (g.body as { speed: { value: number } }).speed.value;
          expect(n, id).to.be.at.least(acked);
          expect(g.body).to.deep.equal(entity(id, n));
        }
        const count = await http(
          base,
          "GET",
          "/ngsi-ld/v1/entities?type=Vehicle&count=true&limit=0",
          undefined,
          {
            Link: linkTo(TEST_CONTEXT),
          },
        );
        expect(count.headers.get("ngsild-results-count")).to.equal("600");
      } finally {
        child.kill("SIGKILL");
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
