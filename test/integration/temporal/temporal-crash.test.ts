import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, killDuring, startServer } from "../helpers/child-server";
import { http, linkTo, TEST_CONTEXT } from "../helpers/test-app";

const L = { Link: linkTo(TEST_CONTEXT) };
const B = "/ngsi-ld/v1";
const obs = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 1000).toISOString();

/**
 * History is as durable as entities. Clients append instances (through the normal API and the
 * temporal API) to a child server that is SIGKILLed at a random moment; after a restart every
 * acknowledged instance is in the history.
 */
describe("temporal history: kill -9 loses no acknowledged instance", function () {
  this.timeout(120_000);

  it("keeps every acknowledged instance over two random SIGKILLs", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-tcrash-"));
    const acked = new Map<string, Set<number>>();
    const ack = (id: string, n: number) => {
      const s = acked.get(id) ?? new Set<number>();
      s.add(n);
      acked.set(id, s);
    };
    try {
      for (let round = 0; round < 2; round++) {
        const port = await freePort();
        const child = await startServer(dataDir, port);
        const base = `http://127.0.0.1:${port}`;
        let stop = false;
        const viaEntities = async (c: number) => {
          const id = `urn:ngsi-ld:Vehicle:r${round}e${c}`;
          const speed = (n: number) => ({ type: "Property", value: n, observedAt: obs(n) });
          try {
            const r = await http(base, "POST", `${B}/entities`, { id, type: "Vehicle", speed: speed(0) }, L);
            if (r.status !== 201) return;
            ack(id, 0);
            for (let n = 1; !stop; n++) {
              const p = await http(base, "PATCH", `${B}/entities/${id}/attrs`, { speed: speed(n) }, L);
              if (p.status === 204) ack(id, n);
            }
          } catch {
            return; // connection reset by the kill
          }
        };
        const viaTemporal = async (c: number) => {
          const id = `urn:ngsi-ld:Vehicle:r${round}t${c}`;
          try {
            for (let n = 0; !stop; n++) {
              const body = {
                id,
                type: "Vehicle",
                speed: [{ type: "Property", value: n, observedAt: obs(n) }],
              };
              const r = await http(base, "POST", `${B}/temporal/entities`, body, L);
              if (r.status === 201 || r.status === 204) ack(id, n);
            }
          } catch {
            return;
          }
        };
        const clients = [0, 1, 2].flatMap((c) => [viaEntities(c), viaTemporal(c)]);
        await killDuring(child, clients, () => (stop = true), 300, 700);
      }
      const port = await freePort();
      const child = await startServer(dataDir, port);
      try {
        const base = `http://127.0.0.1:${port}`;
        let total = 0;
        for (const [id, want] of acked) {
          const g = await http(
            base,
            "GET",
            `${B}/temporal/entities/${id}?options=temporalValues`,
            undefined,
            L,
          );
          expect(g.status, id).to.equal(200);
          const values = new Set(
            (g.body as { speed: { values: [number, string][] } }).speed.values.map((v) => v[0]),
          );
          for (const n of want) expect(values.has(n), `${id} instance ${n}`).to.equal(true);
          total += want.size;
        }
        expect(total).to.be.greaterThan(20);
      } finally {
        child.kill("SIGKILL");
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
