import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { takeIndexImage } from "../../../src/store/indexes/index-image";
import { bearer, login } from "../auth/auth-client";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { Receiver } from "../helpers/receiver";
import { runTool } from "./backup-cli";

const CORE = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";
const LD = { "Content-Type": "application/ld+json" };
const CORE_LINK = {
  Link: `<${CORE}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`,
};
const PASSWORD = "backup-admin-secret-1";
const WRITERS = 8;

/** A Thing whose counter `n` a writer raises, observed at a time that grows with it. */
const thing = (id: string, n: number) => ({
  id,
  type: "Thing",
  n: { type: "Property", value: n, observedAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString() },
  "@context": CORE,
});

describe("backup and restore while 8 writers run", function () {
  this.timeout(180_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-backup-"));
  const archive = path.join(tmp, "backup.tar");
  const restored = path.join(tmp, "restored");
  const env = {
    AUTH: "on",
    ADMIN_PASSWORD: PASSWORD,
    SEED: "on",
    RATE_LIMIT_PREFIX: `t-${process.pid}-backup`,
  };
  let app: TestApp;
  const receiver = new Receiver();
  let copy: TestApp | undefined;
  let admin: string;
  let apiKey: string;
  let contextUrl: string;
  let subscriptionId: string;
  /** Notifications the subscription had sent when the backup was asked for. */
  let sentBefore = 0;
  /** Last counter acknowledged per entity when the backup was asked for. */
  let ackedBefore: Map<string, number>;

  before(async () => {
    await receiver.start();
    app = await startTestApp(env);
    admin = (await login(app.url, "admin", PASSWORD)).access_token;
    const user = await http(
      app.url,
      "POST",
      "/v1/admin/users",
      { username: "operator1", password: "operator-pw-123", role: "operator", tier: "basic" },
      bearer(admin),
    );
    expect(user.status, user.text).to.equal(201);
    const key = await http(
      app.url,
      "POST",
      "/v1/admin/api-keys",
      { name: "kiosk", role: "viewer", tier: "basic" },
      bearer(admin),
    );
    expect(key.status, key.text).to.equal(201);
    apiKey = (key.body as { key: string }).key;
    const ctx = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/jsonldContexts",
      { "@context": { Gadget: "urn:test:Gadget" } },
      bearer(admin),
    );
    expect(ctx.status, ctx.text).to.equal(201);
    contextUrl = ctx.headers.get("location") ?? "";
    const sub = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/subscriptions",
      {
        type: "Subscription",
        entities: [{ type: "Thing" }],
        notification: { endpoint: { uri: receiver.url, accept: "application/json" } },
        "@context": CORE,
      },
      { ...LD, ...bearer(admin) },
    );
    expect(sub.status, sub.text).to.equal(201);
    subscriptionId = (sub.headers.get("location") ?? "").split("/").pop() ?? "";
    // a report image or camera frame lives under media/ like this one
    fs.mkdirSync(path.join(app.dataDir, "media"), { recursive: true });
    fs.writeFileSync(path.join(app.dataDir, "media", "frame.jpg"), Buffer.from("not really a jpeg"));
  });
  after(async () => {
    await copy?.destroy();
    await app.destroy();
    await receiver.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("takes a backup with `npm run backup` while 8 writers POST and PATCH", async () => {
    const acked = new Map<string, number>();
    let stop = false;
    let failures = 0;
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const id = `urn:ngsi-ld:Thing:w${w}-e${i % 5}`;
        const n = i + 1;
        const r =
          i < 5
            ? await http(app.url, "POST", "/ngsi-ld/v1/entities", thing(id, n), { ...LD, ...bearer(admin) })
            : await http(
                app.url,
                "PATCH",
                `/ngsi-ld/v1/entities/${id}/attrs`,
                { n: thing(id, n).n, "@context": CORE },
                { ...LD, ...bearer(admin) },
              );
        if (r.status === 201 || r.status === 204) acked.set(id, n);
        else failures++;
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    // until every writer has created its five entities and patched them twice
    for (let i = 0; i < 600 && (acked.size < WRITERS * 5 || Math.min(...acked.values()) < 11); i++)
      await new Promise((r) => setTimeout(r, 50));
    // and until the subscription has notified (its delivery state is part of the backup)
    const subPath = `/ngsi-ld/v1/subscriptions/${subscriptionId}`;
    for (let i = 0; i < 100 && sentBefore === 0; i++) {
      const sub = await http(app.url, "GET", subPath, undefined, bearer(admin));
      sentBefore = (sub.body as { notification: { timesSent?: number } }).notification.timesSent ?? 0;
      if (sentBefore === 0) await new Promise((r) => setTimeout(r, 100));
    }
    ackedBefore = new Map(acked);
    const b = await runTool("backup", ["--url", app.url, "--out", archive], { ADMIN_PASSWORD: PASSWORD });
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await Promise.all(writers);
    expect(b.code, b.stderr).to.equal(0);
    expect(b.stdout).to.match(/backup written to .*backup\.tar: \d+ bytes/);
    expect(failures).to.equal(0);
    expect(ackedBefore.size).to.equal(WRITERS * 5);
    expect(acked.get("urn:ngsi-ld:Thing:w0-e0")).to.be.greaterThan(
      ackedBefore.get("urn:ngsi-ld:Thing:w0-e0") ?? 0,
    );
  });

  it("restores into an empty folder, after checking it, and the files pass an integrity check", async () => {
    const check = await runTool("restore", ["--check", archive]);
    expect(check.code, check.stderr).to.equal(0);
    expect(check.stdout).to.include("is intact");
    const r = await runTool("restore", [archive], { DATA_DIR: restored });
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/restored \d+ files/);
    for (const f of ["auth/signing-keys.json", "media/frame.jpg"])
      expect(fs.existsSync(path.join(restored, f)), f).to.equal(true);
    // the store as a RocksDB checkpoint of every store, not the live folders
    const store = fs.readdirSync(path.join(restored, "store"));
    const checkpoint = store.find((f) => f.startsWith("checkpoint-")) ?? "";
    expect(store, store.join()).to.not.include("native");
    expect(fs.existsSync(path.join(restored, "store", checkpoint, "checkpoint.json")), checkpoint).to.equal(
      true,
    );
    expect(fs.readdirSync(path.join(restored, "store", checkpoint, "default", "public"))).to.include(
      "CURRENT",
    );
    expect(fs.statSync(path.join(restored, "auth", "signing-keys.json")).mode & 0o777).to.equal(0o600);
    expect(fs.readdirSync(path.join(restored, "hosted-contexts"))).to.have.length(1);
    // the image of the derived indexes, at a seq the restored store replays past: the start loads it
    const cut = Number(/store seq (\d+)/.exec(r.stdout)?.[1]);
    const peek = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-image-"));
    try {
      fs.cpSync(path.join(restored, "indexes"), path.join(peek, "indexes"), { recursive: true });
      const imageSeq = takeIndexImage(peek)?.header.seq ?? -1;
      expect(imageSeq, `image ${imageSeq}, cut ${cut}, ${checkpoint}`).to.be.within(
        Number(/checkpoint-(\d+)/.exec(checkpoint)?.[1]),
        cut,
      );
    } finally {
      fs.rmSync(peek, { recursive: true, force: true });
    }
  });

  it("starts on the restored folder with every write acknowledged before the backup", async () => {
    copy = await startTestApp(env, restored);
    const token = (await login(copy.url, "admin", PASSWORD)).access_token;
    for (const [id, n] of ackedBefore) {
      const r = await http(copy.url, "GET", `/ngsi-ld/v1/entities/${id}`, undefined, {
        ...CORE_LINK,
        ...bearer(token),
      });
      expect(r.status, `${id}: ${r.text}`).to.equal(200);
      expect((r.body as { n: { value: number } }).n.value, id).to.be.at.least(n);
    }
  });

  it("serves the temporal history, SPARQL, REST A, logins, API keys, the hosted @context and subscriptions", async () => {
    const c = copy as TestApp;
    const token = (await login(c.url, "operator1", "operator-pw-123")).access_token;
    const id = "urn:ngsi-ld:Thing:w3-e2";
    const t = await http(c.url, "GET", `/ngsi-ld/v1/temporal/entities/${id}?attrs=n`, undefined, {
      ...CORE_LINK,
      ...bearer(token),
    });
    expect(t.status, t.text).to.equal(200);
    const values = ((t.body as { n: { value: number }[] }).n ?? []).map((i) => i.value);
    // the writer of w3-e2 wrote n = 3, 8, 13, ... (its third entity, one write in five)
    for (let n = 3; n <= (ackedBefore.get(id) ?? 0); n += 5) expect(values, `instance ${n}`).to.include(n);
    expect(values.length).to.be.greaterThan(1);

    const query = `SELECT ?o WHERE { <${id}> ?p ?o }`;
    let rows: unknown[] = [];
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      const s = await http(c.url, "POST", "/sparql", query, {
        "Content-Type": "application/sparql-query",
        Accept: "application/sparql-results+json",
        ...bearer(token),
      });
      expect(s.status, s.text).to.equal(200);
      rows = (s.body as { results: { bindings: unknown[] } }).results.bindings;
      if (rows.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(rows.length).to.be.greaterThan(0);

    const cams = await http(c.url, "GET", "/v1/cameras?limit=1", undefined, { "X-API-Key": apiKey });
    expect(cams.status, cams.text).to.equal(200);
    expect((cams.body as { total: number }).total).to.equal(701);

    const ctx = await http(c.url, "GET", contextUrl, undefined, bearer(token));
    expect(ctx.status, ctx.text).to.equal(200);
    expect(ctx.body).to.deep.include({ "@context": { Gadget: "urn:test:Gadget" } });

    const admin2 = (await login(c.url, "admin", PASSWORD)).access_token;
    const sub = await http(
      c.url,
      "GET",
      `/ngsi-ld/v1/subscriptions/${subscriptionId}`,
      undefined,
      bearer(admin2),
    );
    expect(sub.status, sub.text).to.equal(200);
    const notification = (sub.body as { notification: { endpoint: { uri: string }; timesSent?: number } })
      .notification;
    expect(notification.endpoint.uri).to.equal(receiver.url);
    // the delivery state came along: at least the attempts counted when the backup began
    expect(sentBefore).to.be.greaterThan(0);
    expect(notification.timesSent ?? 0).to.be.at.least(sentBefore);
  });

  it("refuses a folder that is not empty, with exit code 1 and a clear message", async () => {
    const r = await runTool("restore", [archive], { DATA_DIR: restored });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include("is not empty");
  });

  it("refuses a damaged file (a byte changed, or cut short), with exit code 1 and nothing written", async () => {
    const bytes = fs.readFileSync(archive);
    const cases: [string, Buffer][] = [
      ["flipped", Buffer.from(bytes.map((b, i) => (i === Math.floor(bytes.length / 3) ? b ^ 0x01 : b)))],
      ["flipped-padding", Buffer.from(bytes.map((b, i) => (i === bytes.length - 600 ? b ^ 0x20 : b)))],
      ["truncated", bytes.subarray(0, bytes.length - 1024)],
      ["half", bytes.subarray(0, Math.floor(bytes.length / 2 / 512) * 512)],
    ];
    for (const [name, data] of cases) {
      const file = path.join(tmp, `${name}.tar`);
      fs.writeFileSync(file, data);
      const dir = path.join(tmp, `into-${name}`);
      const r = await runTool("restore", [file], { DATA_DIR: dir });
      expect(r.code, name).to.equal(1);
      expect(r.stderr, name).to.include("is not an intact citygraph backup");
      expect(fs.existsSync(dir), name).to.equal(false);
    }
  });

  it("answers POST /v1/admin/backups to an admin only, as an attachment", async () => {
    const anon = await fetch(`${app.url}/v1/admin/backups`, { method: "POST" });
    expect(anon.status).to.equal(401);
    await anon.arrayBuffer();
    const viewer = await fetch(`${app.url}/v1/admin/backups`, {
      method: "POST",
      headers: { "X-API-Key": apiKey },
    });
    expect(viewer.status).to.equal(403);
    await viewer.arrayBuffer();
    const r = await fetch(`${app.url}/v1/admin/backups`, { method: "POST", headers: bearer(admin) });
    expect(r.status).to.equal(200);
    expect(r.headers.get("content-type")).to.equal("application/octet-stream");
    expect(r.headers.get("cache-control"), "signing keys and password hashes stay out of caches").to.equal(
      "no-store",
    );
    expect(r.headers.get("content-disposition")).to.match(
      /^attachment; filename="citygraph-backup-\d{8}T\d{6}Z\.tar"$/,
    );
    const body = Buffer.from(await r.arrayBuffer());
    expect(body.length % 512).to.equal(0);
    expect(body.subarray(257, 262).toString()).to.equal("ustar");
  });
});
