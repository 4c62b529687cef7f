import { fork } from "node:child_process";
import path from "node:path";
import { expect } from "chai";
import { normalized, open, removeDir, tempDir } from "./helpers";

/** Runs the commit loop in a child, kills it with SIGKILL after `ms`, returns the acknowledged numbers. */
function runAndKill(dir: string, ms: number, mode: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, "fixtures", "commit-loop.js"), [dir, mode], { stdio: "pipe" });
    const acked: number[] = [];
    let buf = "";
    let err = "";
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout?.on("data", (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      for (const l of lines) {
        if (l.startsWith("ready")) setTimeout(() => child.kill("SIGKILL"), ms);
        else if (l.startsWith("ack ")) acked.push(Number(l.slice(4)));
      }
    });
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve(acked);
      else reject(new Error(`commit loop ended by itself (code ${code}): ${err}`));
    });
  });
}

/** Checks that every acknowledged commit is in the reopened store. */
async function expectAcked(dir: string, acked: number[]): Promise<void> {
  const store = await open(dir);
  try {
    const graphs = await store.readGraphs(
      "",
      acked.map((i) => `urn:k:${i}`),
    );
    graphs.forEach((g, n) => {
      const i = acked[n];
      expect(normalized(g), `acked commit ${i}`).to.deep.equal(
        normalized(`<urn:k:${i}> <urn:p> _:b .\n_:b <urn:v> "v${i}" .\n`),
      );
    });
    const [counter] = await store.readGraphs("", ["urn:counter"]);
    if (acked.length > 0) {
      const value = Number(/"(\d+)"/.exec(counter ?? "")?.[1]);
      expect(value, "counter is a value written at or after the last ack").to.be.at.least(
        Math.max(...acked) - 3,
      );
    }
  } finally {
    await store.close();
  }
}

describe("store/kill -9 at a random moment", function () {
  this.timeout(120_000);

  for (const mode of ["plain", "compact"]) {
    it(`loses no acknowledged commit (${mode}, 4 kills in a row on one data dir)`, async () => {
      const dir = tempDir();
      try {
        const all: number[] = [];
        for (let round = 0; round < 4; round++) {
          const acked = await runAndKill(dir, 150 + Math.floor(Math.random() * 700), mode);
          all.push(...acked);
          await expectAcked(dir, all);
        }
        expect(all.length, "the loop acknowledged commits").to.be.greaterThan(20);
      } finally {
        removeDir(dir);
      }
    });
  }
});
