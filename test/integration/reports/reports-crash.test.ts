import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startServer } from "../helpers/child-server";
import { until } from "../helpers/report-fixtures";
import { http } from "../helpers/test-app";

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * No report lost: the service is SIGKILLed between a report's acknowledgement and its verification
 * (held back by VERIFY_DELAY_MS); after the restart every acknowledged report is there and verified or
 * queued for review, none lost.
 */
describe("citizen reports: a crash between acknowledgement and verification loses nothing", function () {
  this.timeout(120_000);

  it("verifies after the restart every report acknowledged before the SIGKILL", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-reports-crash-"));
    try {
      let port = await freePort();
      const child = await startServer(dataDir, port, { VERIFY_DELAY_MS: "600000" });
      let base = `http://127.0.0.1:${port}`;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await http(base, "POST", "/v1/citizen-reports", {
          category: "congestion",
          location: { lat: 10.75 + i * 0.02, lon: 106.65 },
          description: `Heavy congestion report number ${i} on the main road`,
          reporter: i % 2 ? { name: "Nam", phone: "0909000111" } : undefined,
        });
        expect(r.status).to.equal(201);
        ids.push((r.body as Obj).id);
      }
      for (const id of ids)
        expect(((await http(base, "GET", `/v1/citizen-reports/${id}`)).body as Obj).status).to.equal(
          "submitted",
        );
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;

      port = await freePort();
      const again = await startServer(dataDir, port);
      base = `http://127.0.0.1:${port}`;
      try {
        await until(
          async () => {
            const q = ((await http(base, "GET", "/v1/reviews")).body as Obj).reviews as Obj[];
            return ids.every((id) => q.some((x) => x.report_id === id && typeof x.score === "number"));
          },
          20_000,
          "every report scored after the restart",
        );
        const queue = ((await http(base, "GET", "/v1/reviews")).body as Obj).reviews as Obj[];
        for (const id of ids) {
          const item = queue.find((x) => x.report_id === id)!;
          expect(item.priority).to.be.oneOf(["high", "normal"]);
          expect(item.evidence[0].factor).to.equal("base");
        }
      } finally {
        const done = new Promise((r) => again.once("exit", r));
        again.kill("SIGTERM");
        await done;
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
