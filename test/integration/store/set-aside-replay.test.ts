import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { replaySetAside } from "../../../src/app/repair/replay-set-aside";
import { readSetAside } from "../../../src/app/repair/set-aside-records";
import { reportLogs } from "../../../src/store/journal/journal-report";
import { isEntityGraph } from "../../../src/store/graph-store";
import { damageRecordHolding } from "../helpers/journal-damage";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const B = "/ngsi-ld/v1";
const A = "urn:ngsi-ld:Vehicle:kept";
const GONE = "urn:ngsi-ld:Vehicle:gone";
const LATE = "urn:ngsi-ld:Vehicle:late";
const obs = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 1000).toISOString();
const speed = (n: number) => ({ type: "Property", value: n, observedAt: obs(n) });
type Json = Record<string, unknown>;

/**
 * Commits set aside after journal damage are listed with their seqs and graphs and replayed into the
 * running service through its API, history included (docs/operations.md "Journal damage").
 */
describe("journal damage: the commits set aside are listed and replayed", function () {
  this.timeout(120_000);
  let dataDir: string;
  let app: TestApp | undefined;
  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-aside-"))));
  afterEach(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const status = async (id: string) => (await http(app!.url, "GET", `${B}/entities/${id}`)).status;
  const speeds = async (id: string) => {
    const r = await http(app!.url, "GET", `${B}/temporal/entities/${id}`);
    return ((r.body as Json).speed as Json[]).map((i) => i.value);
  };

  it("lists the readable records past the damage and replays them, naming none as lost", async () => {
    app = await startTestApp({}, dataDir);
    const post = (e: Json) => http(app!.url, "POST", `${B}/entities`, e);
    expect((await post({ id: A, type: "Vehicle", speed: speed(0) })).status).to.equal(201);
    expect((await post({ id: GONE, type: "Vehicle", speed: speed(0) })).status).to.equal(201);
    for (let n = 1; n <= 4; n++)
      expect((await http(app.url, "PATCH", `${B}/entities/${A}/attrs`, { speed: speed(n) })).status).to.equal(
        204,
      );
    expect((await http(app.url, "DELETE", `${B}/entities/${GONE}`)).status).to.equal(204);
    expect((await post({ id: LATE, type: "Vehicle", speed: speed(9) })).status).to.equal(201);
    await app.close();
    damageRecordHolding(dataDir, obs(2)); // the PATCH of speed 2
    app = await startTestApp({}, dataDir);
    expect(await speeds(A)).to.deep.equal([0, 1]);
    expect(await status(LATE)).to.equal(404);

    const [aside] = reportLogs(dataDir).filter((r) => r.file.includes(".damaged-"));
    expect(aside.records).to.equal(0);
    const { records, salvage } = readSetAside(aside.file);
    expect(aside.afterDamage).to.deep.include({ records: records.length, firstSeq: records[0].seq });
    const seqs = records.map((r) => r.seq);
    expect(seqs).to.deep.equal(seqs.map((_, i) => seqs[0] + i));
    expect(salvage.unreadable).to.have.length(1);
    expect(salvage.unreadable[0].offset).to.equal(0);
    const entityWrites = records.flatMap((r) => r.writes.filter((w) => isEntityGraph(w.graph)));
    expect(entityWrites.map((w) => [w.graph, w.triples === null])).to.deep.equal([
      [A, false],
      [A, false],
      [GONE, true],
      [LATE, false],
    ]);

    const outcomes = await replaySetAside(records, app.url, {});
    const missed = outcomes.filter((o) => !o.replayed);
    expect(
      missed.every((o) => !isEntityGraph(o.graph)),
      JSON.stringify(missed),
    ).to.equal(true);
    expect(outcomes.find((o) => o.graph === GONE)?.note).to.equal("deleted");
    expect(await speeds(A)).to.deep.equal([0, 1, 3, 4]);
    expect(await speeds(LATE)).to.deep.equal([9]);
    expect(await status(GONE)).to.equal(404);

    // the replay went through the journal: a restart keeps it
    await app.close();
    app = await startTestApp({}, dataDir);
    const a = (await http(app.url, "GET", `${B}/entities/${A}`)).body as { speed: Json };
    expect(a.speed).to.include({ value: 4, observedAt: obs(4) });
    expect(await speeds(LATE)).to.deep.equal([9]);
  });
});
