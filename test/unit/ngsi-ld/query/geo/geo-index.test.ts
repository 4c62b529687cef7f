import { expect } from "chai";
import { entityToTriples, type NgsiEntity } from "../../../../../src/ngsi-ld/codec";
import {
  GeoIndex,
  matchesGeoQuery,
  type GeoQuery,
  type Geometry,
} from "../../../../../src/ngsi-ld/query/geo";
import { compileContext } from "../../../../../src/rdf/contexts/compile-context";
import type { CommitEvent, GraphStore } from "../../../../../src/store/graph-store";
import { Rng } from "../../codec/entity-generator";
import { CORE_URL, loadContext } from "../../codec/local-contexts";
import { EntityIndex } from "../../../../../src/store/indexes/entity-index";
import { scanGraphs } from "../../../../../src/store/indexes/graph-scan";
import { withTempStore } from "../../../store/helpers";
import { geometry, geoQuery } from "./random-geo";

const ctx = compileContext([loadContext(CORE_URL), { "@context": { area: "https://example.org/area" } }]);
const AREA = "https://example.org/area";

/** A random entity: a location (sometimes two instances), sometimes an `area`, sometimes neither. */
function entity(rng: Rng, i: number): NgsiEntity {
  const e: NgsiEntity = {
    id: `urn:ngsi-ld:Thing:${i}`,
    type: "Thing",
    speed: { type: "Property", value: rng.int(100) },
  };
  if (rng.chance(0.9)) {
    const geo = (g: Geometry) => ({ type: "GeoProperty", value: g as never });
    e.location = rng.chance(0.1)
      ? [geo(geometry(rng)), { ...geo(geometry(rng)), datasetId: "urn:ds:2" }]
      : geo(geometry(rng));
  }
  if (rng.chance(0.3)) e.area = { type: "GeoProperty", value: geometry(rng, 0.2) as never };
  return e;
}

/** The naive evaluator: every entity, every instance of the GeoProperty, matchesGeoQuery. */
function naive(entities: Map<string, NgsiEntity>, q: GeoQuery): string[] {
  const key = q.geopropertyIri === AREA ? "area" : "location";
  const out: string[] = [];
  for (const e of entities.values()) {
    const v = e[key];
    const insts = (v === undefined ? [] : Array.isArray(v) ? v : [v]) as { value: unknown }[];
    if (insts.some((inst) => matchesGeoQuery(inst.value, q))) out.push(e.id);
  }
  return out.sort();
}

function geometriesOf(entities: Map<string, NgsiEntity>): Geometry[] {
  return [...entities.values()].flatMap((e) => {
    const v = e.location;
    return (v === undefined ? [] : Array.isArray(v) ? v : [v]).map((i) => (i as { value: Geometry }).value);
  });
}

function event(tenant: string, writes: CommitEvent["writes"], seq: number): CommitEvent {
  return { seq, tenant, writes };
}

const write = (e: NgsiEntity) => ({ graph: e.id, triples: entityToTriples(e, ctx) });

describe("GeoIndex (ETSI GS CIM 009 v1.8 §4.10; docs/design.md derived indexes)", () => {
  it("model-based: index candidates are a superset and index matches equal a naive scan, through creates, updates, deletes", () => {
    const rng = new Rng(42);
    const index = new GeoIndex();
    const live = new Map<string, NgsiEntity>();
    let seq = 0;
    let nonEmpty = 0;
    for (let round = 0; round < 6; round++) {
      const writes: CommitEvent["writes"] = [];
      for (let k = 0; k < 80; k++) {
        const i = rng.int(300);
        const id = `urn:ngsi-ld:Thing:${i}`;
        if (live.has(id) && rng.chance(0.25)) {
          live.delete(id);
          writes.push({ graph: id, triples: null });
        } else {
          const e = entity(rng, i);
          live.set(id, e);
          writes.push(write(e));
        }
      }
      index.apply(event("", writes, ++seq));
      index.apply(event("other", [write(entity(rng, 1))], ++seq));
      for (let n = 0; n < 60; n++) {
        const q = geoQuery(rng, geometriesOf(live), rng.chance(0.2) ? AREA : undefined);
        const want = naive(live, q);
        if (want.length > 0) nonEmpty++;
        const cands = index.candidates("", q);
        if (cands === undefined) {
          expect(
            q.georel.name === "disjoint" || (q.georel.name === "near" && q.georel.maxDistance === undefined),
          ).to.equal(true);
        } else {
          expect(new Set(cands).size).to.equal(cands.length);
          const set = new Set(cands);
          expect(
            want.filter((id) => !set.has(id)),
            JSON.stringify(q),
          ).to.deep.equal([]);
        }
        expect(index.matches("", q).sort(), JSON.stringify(q)).to.deep.equal(want);
      }
    }
    expect(nonEmpty).to.be.greaterThan(100);
  });

  it("keeps tenants apart and forgets deleted entities", () => {
    const index = new GeoIndex();
    const e: NgsiEntity = {
      id: "urn:x:1",
      type: "T",
      location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7, 10.78] } },
    };
    index.apply(event("a", [write(e)], 1));
    const q: GeoQuery = {
      georel: { name: "near", maxDistance: 10 },
      geometry: { type: "Point", coordinates: [106.7, 10.78] },
      geoproperty: "location",
      geopropertyIri: "https://uri.etsi.org/ngsi-ld/location",
    };
    expect(index.matches("a", q)).to.deep.equal(["urn:x:1"]);
    expect(index.matches("b", q)).to.deep.equal([]);
    expect(index.candidates("", q)).to.deep.equal([]);
    index.apply(event("a", [{ graph: "urn:x:1", triples: null }], 2));
    expect(index.matches("a", q)).to.deep.equal([]);
    expect(index.size("a")).to.equal(0);
  });

  describe("rebuilt from the graph", () => {
    let store: GraphStore;
    withTempStore((s) => (store = s));

    it("gives the same answers as the index fed by the change feed", async () => {
      const rng = new Rng(7);
      const fed = new GeoIndex();
      store.onCommit((e) => fed.apply(e));
      const live = new Map<string, NgsiEntity>();
      for (const tenant of ["", "t2"]) {
        for (let b = 0; b < 4; b++) {
          const batch = Array.from({ length: 50 }, (_, k) => entity(rng, b * 50 + k));
          await store.commit(tenant, batch.map(write));
          if (tenant === "") for (const e of batch) live.set(e.id, e);
        }
      }
      await store.commit("", [{ graph: "urn:ngsi-ld:Thing:3", triples: null }]);
      live.delete("urn:ngsi-ld:Thing:3");
      const rebuilt = new GeoIndex();
      await rebuilt.rebuild(store);
      expect(rebuilt.size("")).to.equal(fed.size("")).and.to.be.greaterThan(150);
      expect(rebuilt.size("t2")).to.equal(fed.size("t2"));
      for (let n = 0; n < 150; n++) {
        const q = geoQuery(rng, geometriesOf(live), rng.chance(0.2) ? AREA : undefined);
        const want = naive(live, q);
        expect(rebuilt.matches("", q).sort()).to.deep.equal(want);
        expect(fed.matches("", q).sort()).to.deep.equal(want);
        expect(rebuilt.matches("t2", q).sort()).to.deep.equal(fed.matches("t2", q).sort());
      }
    });

    it("filled by one scan while commits replace and delete entities: the feed's state wins", async function () {
      this.timeout(60_000); // 3,000 entities through a real store: 17 s alone on a loaded machine
      const rng = new Rng(11);
      const live = new Map<string, NgsiEntity>();
      for (let b = 0; b < 6; b++) {
        const batch = Array.from({ length: 500 }, (_, k) => entity(rng, b * 500 + k));
        await store.commit("", batch.map(write));
        for (const e of batch) live.set(e.id, e);
      }
      const scanned = new GeoIndex();
      const off = store.onCommit((e) => scanned.apply(e));
      const ids = new EntityIndex();
      await ids.rebuild(store);
      const done = scanGraphs(store, (t) => ids.ids(t), [scanned], { chunk: 50 });
      for (let k = 0; k < 20; k++) {
        const replaced = Array.from({ length: 10 }, () => entity(rng, rng.int(3000)));
        const gone = `urn:ngsi-ld:Thing:${rng.int(3000)}`;
        const writes = [...new Map(replaced.map((e) => [e.id, e])).values()].filter((e) => e.id !== gone);
        await store.commit("", [...writes.map(write), { graph: gone, triples: null }]);
        for (const e of writes) live.set(e.id, e);
        live.delete(gone);
      }
      await done;
      off();
      for (let n = 0; n < 100; n++) {
        const q = geoQuery(rng, geometriesOf(live), rng.chance(0.2) ? AREA : undefined);
        expect(scanned.matches("", q).sort()).to.deep.equal(naive(live, q));
      }
    });
  });
});
