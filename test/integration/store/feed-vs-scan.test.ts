import { expect } from "chai";
import { entityToTriples, triplesToEntity, type NgsiEntity } from "../../../src/ngsi-ld/codec";
import { readsAsWritten } from "../../../src/ngsi-ld/codec/reads-as-written";
import { DiscoveryIndex } from "../../../src/ngsi-ld/discovery/discovery-index";
import type { EntityCodec } from "../../../src/ngsi-ld/entities/entity-codec";
import { EntityRepository } from "../../../src/ngsi-ld/entities/entity-repository";
import type { Entity } from "../../../src/ngsi-ld/model/entity";
import { GeoIndex } from "../../../src/ngsi-ld/query/geo";
import { AttributeIndex, type Slot } from "../../../src/ngsi-ld/query/index/attribute-index";
import { compileContext } from "../../../src/rdf/contexts/compile-context";
import type { CompiledContext } from "../../../src/rdf/contexts/compiled-context";
import { NGSI_LD_LOCATION } from "../../../src/rdf/vocab";
import type { GraphStore } from "../../../src/store/graph-store";
import { EntityIndex } from "../../../src/store/indexes/entity-index";
import { scanGraphs } from "../../../src/store/indexes/graph-scan";
import { generateEntity, Rng } from "../../unit/ngsi-ld/codec/entity-generator";
import { openFeedStore, type FeedStore } from "../helpers/feed-store";
import { CORE_URL, ETSI_URL, loadContext } from "../../unit/ngsi-ld/codec/local-contexts";

/**
 * The derived indexes (attribute, geo, discovery) hold the same entries whether the change feed filled
 * them from the entities the repository wrote (entities/written-entity.ts, codec/reads-as-written.ts) or
 * the start-up scan decoded every graph read back from the store (docs/design.md "Indexes beside the store,
 * derived from it"): generated entities of every attribute kind, multi-instance attributes with
 * datasetIds, sub-attributes, value objects, entities the feed must decode after all, written with two
 * different @contexts, then replaced, merged into batches with deletions, and deleted.
 */

const codec: EntityCodec = {
  toTriples: (e, c) => entityToTriples(e as NgsiEntity, c),
  fromTriples: (t, id, c) => triplesToEntity(t, id, c) as Entity,
};
const core = compileContext([loadContext(CORE_URL)]);
const etsi = compileContext([loadContext(ETSI_URL), loadContext(CORE_URL)]);
const ex = compileContext([
  { "@context": { ex: "https://example.org/", speed: "ex:speed", Zone: "ex:Zone" } },
  loadContext(CORE_URL),
]);
const TENANT = "feed";
const XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer";

/** Entities whose graph reads back differently from the entity itself: the feed must decode them. */
function oddEntity(r: Rng, n: number): Entity {
  const id = `urn:ngsi-ld:Thing:odd${n}`;
  switch (r.int(4)) {
    case 0:
      return {
        id,
        type: "Zone",
        speed: { type: "Property", value: { "@value": "5", "@type": XSD_INTEGER } },
      };
    case 1:
      return { id, type: "Zone", speed: { type: "Property", value: [[1, 2], 3] } };
    case 2:
      return { id, type: "Zone", label: { type: "LanguageProperty", languageMap: { en: ["a"] } } };
    default:
      return { id, type: "Zone", rel: { type: "Relationship", object: "ex:thing" } };
  }
}

/** One slot, order-free (the store gives values back in its own order, and as a set). */
function slotKey(s: Slot): string {
  if (typeof s !== "object") return JSON.stringify({ exact: true, instances: [[s]] });
  const instances = s.instances.map((vs) => [...new Set(vs.map((v) => JSON.stringify(v)))].sort()).sort();
  return JSON.stringify({ exact: s.exact, instances });
}

function attributeDump(index: AttributeIndex): object {
  const t = index.tenant(TENANT);
  const types = [...t.types].filter(([, ids]) => ids.size).map(([ty, ids]) => [ty, [...ids].sort()]);
  const attrs = [...t.attrs]
    .filter(([, m]) => m.size)
    .map(([a, m]) => [a, [...m].map(([id, s]) => [id, slotKey(s)]).sort()]);
  const entities = [...t.entities.keys()].sort().map((id) => [id, [...t.scopes(id)].sort()]);
  return { types: types.sort(), attrs: attrs.sort(), entities };
}

function discoveryDump(d: DiscoveryIndex): object {
  const counts = (m: ReadonlyMap<string, number>) => [...m].sort();
  const types = [...d.types(TENANT)].map(([ty, s]) => [
    ty,
    s.entities,
    [...s.attrs].map(([a, k]) => [a, counts(k)]).sort(),
  ]);
  const attrs = [...d.attributes(TENANT)].map(([a, s]) => [a, s.instances, counts(s.kinds), counts(s.types)]);
  return { types: types.sort(), attrs: attrs.sort() };
}

/** The geo index as seen through its queries: everything, and a few windows around the generated points. */
function geoDump(g: GeoIndex): object {
  const windows = [
    [-180, -90, 180, 90],
    [106.6, 10.7, 106.75, 10.85],
    [106.69, 10.78, 106.72, 10.8],
    [0, 0, 0.5, 0.5],
  ].map(([a, b, c, d]) =>
    g
      .matches(TENANT, {
        georel: { name: "intersects" },
        geometry: {
          type: "Polygon",
          coordinates: [
            [
              [a, b],
              [c, b],
              [c, d],
              [a, d],
              [a, b],
            ],
          ],
        },
        geoproperty: "location",
        geopropertyIri: NGSI_LD_LOCATION,
      })
      .sort(),
  );
  return { size: g.size(TENANT), windows };
}

/** Fails with the entries only one side has (easier to read than a deep diff of the whole dump). */
function expectSame(feed: object, scan: object): void {
  const lines = (o: object) =>
    Object.entries(o).flatMap(([k, v]) =>
      Array.isArray(v) ? v.map((x) => `${k} ${JSON.stringify(x)}`) : [`${k} ${JSON.stringify(v)}`],
    );
  const a = lines(feed);
  const b = lines(scan);
  const diff = { onlyFeed: a.filter((l) => !b.includes(l)), onlyScan: b.filter((l) => !a.includes(l)) };
  expect(diff, JSON.stringify(diff, null, 1)).to.deep.equal({ onlyFeed: [], onlyScan: [] });
}

describe("derived indexes: filled by the change feed = filled by the scan of the stored graphs", function () {
  this.timeout(120_000);
  let fed: FeedStore;
  let store: GraphStore;
  let ids: EntityIndex;
  let repo: EntityRepository;
  let attrs: AttributeIndex;
  let geo: GeoIndex;
  let discovery: DiscoveryIndex;

  before(async () => {
    fed = await openFeedStore("citygraph-feedscan-", codec);
    ({ store, ids, geo, repo } = fed);
    attrs = new AttributeIndex((t, id) => codec.fromTriples(t, id, core), core);
    fed.pipeline.derive("attribute index", (e) => attrs.apply(e));
    discovery = new DiscoveryIndex(store, ids);
    await discovery.ready();
    fed.pipeline.derive("discovery index", (e) => discovery.apply(e));
  });
  after(async () => fed.close());

  it("holds the same entries after creates, replaces, batches with deletions and deletes", async () => {
    const r = new Rng(20261121);
    const gen = (n: number, c: CompiledContext): Entity =>
      r.chance(0.08) ? oddEntity(r, n) : (generateEntity(r, n, c === etsi) as Entity);
    let plain = 0;
    let odd = 0;
    const commit = async (c: CompiledContext, save: Entity[], remove: string[] = []) => {
      const unique = [...new Map(save.map((e) => [e.id, e])).values()].filter((e) => !remove.includes(e.id));
      for (const e of unique)
        if (readsAsWritten(e as NgsiEntity, c)) plain++;
        else odd++;
      await repo.commit(TENANT, "test", c, unique, remove);
    };
    for (let n = 0; n < 300; n += 30)
      await commit(
        n % 60 ? ex : etsi,
        Array.from({ length: 30 }, (_, k) => gen(n + k, n % 60 ? ex : etsi)),
      );
    for (let round = 0; round < 8; round++) {
      const c = round % 2 ? ex : etsi;
      const save = Array.from({ length: 25 }, () => gen(r.int(300), c));
      const live = [...ids.entries(TENANT)].map(([id]) => id);
      const remove = live.filter(() => r.chance(0.03));
      await commit(c, save, remove);
      for (const e of save.slice(0, 3)) await commit(c, [gen(Number(e.id.split(":").pop()) || 0, c)]);
      const one = live[r.int(live.length)];
      if (ids.has(TENANT, one)) await commit(c, [], [one]);
    }
    // both ways of filling are exercised
    expect(plain).to.be.greaterThan(200);
    expect(odd).to.be.greaterThan(15);

    const scanned = new AttributeIndex((t, id) => codec.fromTriples(t, id, core), core);
    const scannedGeo = new GeoIndex();
    await scanned.fillingBy(scanGraphs(store, (t) => ids.ids(t), [scanned, scannedGeo]));
    const scannedDiscovery = new DiscoveryIndex(store, ids);
    await scannedDiscovery.ready();

    expect(ids.size(TENANT)).to.be.greaterThan(200);
    expectSame(attributeDump(attrs), attributeDump(scanned));
    expectSame(discoveryDump(discovery), discoveryDump(scannedDiscovery));
    const g = geoDump(geo) as { size: number };
    expect(g.size).to.be.greaterThan(20);
    expectSame(g, geoDump(scannedGeo));
  });
});
