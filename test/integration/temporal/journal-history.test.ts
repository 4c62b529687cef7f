import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { damageRecordHolding } from "../helpers/journal-damage";
import { http, linkTo, startTestApp, TEST_CONTEXT } from "../helpers/test-app";

const L = { Link: linkTo(TEST_CONTEXT) };
const B = "/ngsi-ld/v1";
const A = "urn:ngsi-ld:Vehicle:aligned";
const LATE = "urn:ngsi-ld:Vehicle:late";
type Json = Record<string, unknown>;
const obs = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 1000).toISOString();
const speed = (n: number) => ({ type: "Property", value: n, observedAt: obs(n) });

const speeds = async (base: string, id: string) => {
  const r = await http(base, "GET", `${B}/temporal/entities/${id}`, undefined, L);
  if (r.status !== 200) return r.status;
  const list = (r.body as Json).speed;
  return (Array.isArray(list) ? list : [list]).map((i) => (i as Json).value);
};

/**
 * A journal recovery cuts the store back to an earlier commit; the temporal history, which has its own
 * log, is cut back to the same commit, so the temporal API never shows an instance of a write the store
 * lost, and the latest instance is the current value.
 */
describe("journal recovery: the temporal history follows the recovered store", function () {
  this.timeout(120_000);

  for (const [name, damaged, kept] of [
    ["damage mid-journal (the later commits set aside)", "T00:00:03", [0, 1, 2]],
    ["damage to the last record", LATE, [0, 1, 2, 3, 4]],
  ] as const) {
    it(`drops the instances of the lost writes after ${name}, and stays aligned after new writes`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-jhist-"));
      try {
        let app = await startTestApp({}, dataDir);
        expect(
          (await http(app.url, "POST", `${B}/entities`, { id: A, type: "Vehicle", speed: speed(0) }, L))
            .status,
        ).to.equal(201);
        for (let n = 1; n <= 4; n++) {
          const p = await http(app.url, "PATCH", `${B}/entities/${A}/attrs`, { speed: speed(n) }, L);
          expect(p.status).to.equal(204);
        }
        const late = { id: LATE, type: "Vehicle", speed: speed(9) };
        expect((await http(app.url, "POST", `${B}/entities`, late, L)).status).to.equal(201);
        expect(await speeds(app.url, A)).to.deep.equal([0, 1, 2, 3, 4]);
        await app.close();

        damageRecordHolding(dataDir, damaged);
        app = await startTestApp({}, dataDir);
        const current = await http(app.url, "GET", `${B}/entities/${A}`, undefined, L);
        expect((current.body as Json).speed).to.include({ value: kept.at(-1) });
        expect(await speeds(app.url, A)).to.deep.equal([...kept]);
        expect((await http(app.url, "GET", `${B}/entities/${LATE}`, undefined, L)).status).to.equal(404);
        expect(await speeds(app.url, LATE)).to.equal(404);

        // new commits take the lost writes' journal seqs again: the history keeps only theirs
        const p = await http(app.url, "PATCH", `${B}/entities/${A}/attrs`, { speed: speed(7) }, L);
        expect(p.status).to.equal(204);
        await app.close();
        app = await startTestApp({}, dataDir);
        expect(await speeds(app.url, A)).to.deep.equal([...kept, 7]);
        const after = await http(app.url, "GET", `${B}/entities/${A}`, undefined, L);
        expect((after.body as Json).speed).to.include({ value: 7 });
        await app.close();
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
