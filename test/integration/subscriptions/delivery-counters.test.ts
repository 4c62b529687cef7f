import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { expect } from "chai";
import { freePort, startServer } from "../helpers/child-server";
import { http } from "../helpers/test-app";
import { Receiver } from "../helpers/receiver";

/** Hardening: a subscription's delivery counters survive a SIGKILL with the deliveries they count. */
describe("delivery counters over a SIGKILL", function () {
  this.timeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-counters-"));
  let rx: Receiver;
  let child: ChildProcess | undefined;
  // the statuses are written to the graph once an hour only: the counters must not depend on it
  const env = { SUBSCRIPTION_STATUS_FLUSH: "1h" };
  before(async () => {
    rx = await new Receiver().start();
  });
  after(async () => {
    child?.kill("SIGKILL");
    await rx?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps timesSent equal to the notifications received before the kill", async () => {
    const port = await freePort();
    child = await startServer(dir, port, env);
    const base = `http://127.0.0.1:${port}`;
    const id = "urn:ngsi-ld:Subscription:counted";
    const sub = await http(base, "POST", "/ngsi-ld/v1/subscriptions", {
      id,
      type: "Subscription",
      entities: [{ type: "Counted" }],
      notification: { endpoint: { uri: rx.url } },
    });
    expect(sub.status).to.equal(201);
    for (let i = 0; i < 25; i++) {
      const w = await http(base, "POST", "/ngsi-ld/v1/entities", {
        id: `urn:ngsi-ld:Counted:${i}`,
        type: "Counted",
        n: { type: "Property", value: i },
      });
      expect(w.status).to.equal(201);
    }
    expect(await rx.until(() => rx.received.length >= 25, 20_000)).to.equal(true);
    await new Promise((r) => setTimeout(r, 300)); // the last answers reach the broker
    child.kill("SIGKILL");
    await new Promise((r) => child?.once("exit", r));
    child = await startServer(dir, port, env);
    const after = (await http(base, "GET", `/ngsi-ld/v1/subscriptions/${id}`)).body as {
      notification: { timesSent?: number; lastSuccess?: string };
    };
    expect(after.notification.timesSent).to.equal(25);
    expect(after.notification.lastSuccess).to.be.a("string");
  });
});
