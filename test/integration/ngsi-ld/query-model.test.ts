import { expect } from "chai";
import { entityToTriples, triplesToEntity } from "../../../src/ngsi-ld/codec";
import type { EntityCodec } from "../../../src/ngsi-ld/entities/entity-codec";
import { EntityRepository } from "../../../src/ngsi-ld/entities/entity-repository";
import type { Entity } from "../../../src/ngsi-ld/model/entity";
import { buildFilter } from "../../../src/ngsi-ld/query/build-filter";
import { queryEntities } from "../../../src/ngsi-ld/query/entity-query";
import { EntityViewCache } from "../../../src/ngsi-ld/query/entity-view-cache";
import { AttributeIndex } from "../../../src/ngsi-ld/query/index/attribute-index";
import { GeoIndex } from "../../../src/ngsi-ld/query/geo";
import { matchesFilter, type EntityFilter } from "../../../src/ngsi-ld/query/query-filter";
import { compileContext } from "../../../src/rdf/contexts/compile-context";
import type { GraphStore } from "../../../src/store/graph-store";
import { EntityIndex } from "../../../src/store/indexes/entity-index";
import { Rng } from "../../unit/ngsi-ld/codec/entity-generator";
import { openFeedStore, type FeedStore } from "../helpers/feed-store";
import { CORE_URL, loadContext } from "../../unit/ngsi-ld/codec/local-contexts";

const codec: EntityCodec = {
  toTriples: (e, c) => entityToTriples(e as Parameters<typeof entityToTriples>[0], c),
  fromTriples: (t, id, c) => triplesToEntity(t, id, c) as Entity,
};
const core = compileContext([loadContext(CORE_URL)]);
const ctx = compileContext([
  { "@context": { ex: "https://example.org/", n1: "ex:n1", A: "ex:A" } },
  loadContext(CORE_URL),
]);
const TENANT = "model";

const STRINGS = ["red", "green", "blue", "Red"];
const TIMES = ["2024-01-01T00:00:00Z", "2024-06-01T12:00:00Z", "2025-01-01T00:00:00Z"];
const SCOPES = ["/a/b", "/a/c", "/d", "/a/b/e"];

/** A random normalized entity over a small vocabulary, so that random queries often hit. */
function randomEntity(r: Rng, n: number): Entity {
  const e: Entity = { id: `urn:ngsi-ld:M:${n}`, type: r.chance(0.3) ? ["A", "B"] : r.pick(["A", "B", "C"]) };
  const p = (value: unknown, extra: object = {}) => ({ type: "Property", value, ...extra });
  if (r.chance(0.7)) e.n1 = p(r.int(10), r.chance(0.5) ? { observedAt: r.pick(TIMES) } : {});
  if (r.chance(0.6)) e.n2 = p(r.int(100) / 4);
  if (r.chance(0.6)) e.s1 = p(r.pick(STRINGS));
  if (r.chance(0.5)) e.b1 = p(r.chance(0.5));
  if (r.chance(0.5)) e.d1 = p({ "@type": "DateTime", "@value": r.pick(TIMES) });
  if (r.chance(0.5)) e.r1 = { type: "Relationship", object: `urn:ngsi-ld:T:${r.int(3)}` };
  if (r.chance(0.4)) e.st = p({ k: r.int(5), j: r.pick(STRINGS) });
  if (r.chance(0.4))
    e.lp = { type: "LanguageProperty", languageMap: { en: r.pick(STRINGS), fr: r.pick(STRINGS) } };
  if (r.chance(0.4)) e.arr = p([r.int(5), r.int(5)]);
  if (r.chance(0.4)) {
    e.m1 = [
      p(r.int(10), { datasetId: "urn:ngsi-ld:Dataset:x" }),
      p(r.int(10), { datasetId: "urn:ngsi-ld:Dataset:y" }),
    ];
  }
  if (r.chance(0.3)) e.n2 = p(r.int(10), { sub: p(r.int(3)) });
  const point = () => ({ type: "Point", coordinates: [106.6 + r.int(100) / 1000, 10.7 + r.int(100) / 1000] });
  if (r.chance(0.7)) e.location = { type: "GeoProperty", value: point() };
  if (r.chance(0.5)) e.scope = r.chance(0.3) ? [r.pick(SCOPES), r.pick(SCOPES)] : r.pick(SCOPES);
  return e;
}

function randomTerm(r: Rng): string {
  const op = () => r.pick(["==", "!=", ">", ">=", "<", "<="]);
  switch (r.int(14)) {
    case 0:
      return `n1${op()}${r.int(10)}`;
    case 1:
      return `n2${op()}${r.int(25)}.5`;
    case 2:
      return `s1${r.pick(["==", "!="])}"${r.pick(STRINGS)}"`;
    case 3:
      return `s1~=${r.pick(["^r", "(?i)^r", "e"])}`;
    case 4:
      return `b1==${r.pick(["true", "false"])}`;
    case 5:
      return `d1${op()}${r.pick(TIMES)}`;
    case 6:
      return `r1${r.pick(["==", "!="])}urn:ngsi-ld:T:${r.int(3)}`;
    case 7:
      return `n1==${r.int(5)}..${5 + r.int(5)}`;
    case 8:
      return `m1${r.pick(["==", "!="])}${r.int(10)},${r.int(10)}`;
    case 9:
      return `st[k]${op()}${r.int(5)}`;
    case 10:
      return `lp${r.pick(["", "[en]"])}=="${r.pick(STRINGS)}"`;
    case 11:
      return `n1.observedAt${op()}${r.pick(TIMES)}`;
    case 12:
      return `arr==${r.int(5)}`;
    default:
      return r.pick(["n1", "s1", "st", "n2.sub", "ex:n1", "missing", "st[j]", "n2.sub>1"]);
  }
}

function randomQ(r: Rng, depth = 0): string {
  if (depth > 1 || r.chance(0.4)) return randomTerm(r);
  const parts = Array.from({ length: 2 + r.int(2) }, () => randomQ(r, depth + 1));
  const joined = parts.join(r.pick([";", "|"]));
  return depth > 0 || r.chance(0.3) ? `(${joined})` : joined;
}

function randomGeo(r: Rng) {
  const x = 106.6 + r.int(100) / 1000;
  const y = 10.7 + r.int(100) / 1000;
  if (r.chance(0.6)) {
    return {
      georel: r.pick([`near;maxDistance==${1000 + r.int(4000)}`, `near;minDistance==${r.int(8000)}`]),
      geometry: "Point",
      coordinates: `[${x},${y}]`,
    };
  }
  const d = 0.01 + r.int(50) / 1000;
  return {
    georel: r.pick(["within", "intersects", "disjoint"]),
    geometry: "Polygon",
    coordinates: JSON.stringify([
      [
        [x, y],
        [x + d, y],
        [x + d, y + d],
        [x, y + d],
        [x, y],
      ],
    ]),
  };
}

function randomFilter(r: Rng): EntityFilter {
  const type = r.chance(0.6) ? r.pick(["A", "B", "C", "A,C", "A;B", "(A;B)|C", "Z"]) : undefined;
  return buildFilter(
    {
      selectors:
        type || r.chance(0.2) ? [{ type, idPattern: r.chance(0.2) ? "[02468]$" : undefined }] : undefined,
      q: r.chance(0.85) ? randomQ(r) : undefined,
      scopeQ: r.chance(0.2) ? r.pick(["/a/#", "/a/+", "/d", "/#", "/a/b;/d", "/a/c,/d"]) : undefined,
      attrs: r.chance(0.15) ? [r.pick(["s1", "st", "n1"]), r.pick(["lp", "missing"])] : undefined,
      geo: r.chance(0.25) ? { params: randomGeo(r) } : undefined,
    },
    ctx,
  );
}

describe("query engine, model-based: indexed answers = a naive scan (docs/design.md indexes)", function () {
  this.timeout(120_000);
  let fed: FeedStore;
  let store: GraphStore;
  let ids: EntityIndex;
  let repo: EntityRepository;
  let index: AttributeIndex;
  let geo: GeoIndex;
  let views: EntityViewCache;
  const r = new Rng(20261121);
  const live = new Set<number>();

  const naive = async (f: EntityFilter): Promise<string[]> => {
    const all = await repo.readMany(
      TENANT,
      [...ids.entries(TENANT)].map(([id]) => id),
      ctx,
    );
    return all.filter((e): e is Entity => !!e && matchesFilter(f, e, ctx)).map((e) => e.id);
  };

  const compare = async (idx: AttributeIndex, rounds: number) => {
    let someButNotAll = 0;
    for (let i = 0; i < rounds; i++) {
      const f = randomFilter(r);
      const want = (await naive(f)).sort();
      const src = { index: idx, entityTypes: ids, geo, views };
      const all = await queryEntities(src, TENANT, { ...f, limit: 1000, offset: 0, count: true }, ctx);
      const got = all.entities.map((e) => e.id);
      expect(
        [...got].sort(),
        JSON.stringify(f, (_k, v: unknown) => (v instanceof RegExp ? v.source : v)),
      ).to.deep.equal(want);
      expect(all.total).to.equal(want.length);
      const page = await queryEntities(src, TENANT, { ...f, limit: 5, offset: 3, count: false }, ctx);
      expect(page.entities.map((e) => e.id)).to.deep.equal(got.slice(3, 8));
      expect(page.hasMore).to.equal(want.length > 8);
      if (want.length > 0 && want.length < ids.size(TENANT)) someButNotAll++;
    }
    // the random queries must discriminate, or the comparison proves little
    expect(someButNotAll).to.be.greaterThan(rounds / 3);
  };

  before(async () => {
    fed = await openFeedStore("citygraph-qmodel-", codec);
    ({ store, ids, geo, repo } = fed);
    views = new EntityViewCache(repo, 100);
    fed.pipeline.derive("entity view cache", (e) => views.apply(e));
    index = new AttributeIndex((t, id) => codec.fromTriples(t, id, core), core);
    fed.pipeline.derive("attribute index", (e) => index.apply(e));
    const batch = Array.from({ length: 300 }, (_, n) => randomEntity(r, n));
    batch.forEach((_, n) => live.add(n));
    await repo.commit(TENANT, "create", ctx, batch);
  });
  after(async () => fed.close());

  it("answers 300 random queries like the naive evaluator", async () => compare(index, 300));

  it("stays equal while entities are replaced, created and deleted (change feed)", async () => {
    for (let round = 0; round < 5; round++) {
      const save = Array.from({ length: 40 }, () => randomEntity(r, r.int(340)));
      const unique = [...new Map(save.map((e) => [e.id, e])).values()];
      const remove = [...live].filter(() => r.chance(0.05)).map((n) => `urn:ngsi-ld:M:${n}`);
      const kept = unique.filter((e) => !remove.includes(e.id));
      await repo.commit(
        TENANT,
        "mixed",
        ctx,
        kept,
        remove.filter((id) => ids.has(TENANT, id)),
      );
      await compare(index, 40);
    }
  });

  it("gives the same answers after the indexes are rebuilt from the graph, with writes during the rebuild", async () => {
    const rebuilt = new AttributeIndex((t, id) => codec.fromTriples(t, id, core), core);
    fed.pipeline.derive("attribute index", (e) => rebuilt.apply(e));
    const done = rebuilt.rebuild(store, (t) => [...ids.entries(t)].map(([id]) => id));
    for (let k = 0; k < 5; k++) {
      const save = [
        ...new Map(
          Array.from({ length: 20 }, () => randomEntity(r, r.int(340))).map((e) => [e.id, e]),
        ).values(),
      ];
      const gone = save
        .slice(0, 3)
        .map((e) => e.id)
        .filter((id) => ids.has(TENANT, id));
      await repo.commit(TENANT, "during-rebuild", ctx, save.slice(3), gone);
    }
    await done;
    await geo.rebuild(store);
    await compare(rebuilt, 150);
    const fresh = new EntityIndex();
    await fresh.rebuild(store);
    expect(fresh.size(TENANT)).to.equal(ids.size(TENANT));
  });

  it("lists by type from the id/type index while the attribute index is still filling", async () => {
    const filling = new AttributeIndex((t, id) => codec.fromTriples(t, id, core), core);
    void filling.fillingBy(new Promise(() => undefined));
    expect(filling.isFilled()).to.equal(false);
    const src = { index: filling, entityTypes: ids, geo, views };
    for (const type of ["A", "B", "C"]) {
      const f: EntityFilter = { selectors: [{ types: { kind: "leaf", leaf: ctx.expandTerm(type) } }] };
      const want = (await naive(f)).sort();
      expect(want).to.have.length.above(0);
      const all = await queryEntities(src, TENANT, { ...f, limit: 1000, offset: 0, count: true }, ctx);
      expect(all.entities.map((e) => e.id).sort()).to.deep.equal(want);
      expect(all.total).to.equal(want.length);
      const page = await queryEntities(src, TENANT, { ...f, limit: 5, offset: 2, count: false }, ctx);
      expect(page.entities).to.have.length(5);
      expect(page.hasMore).to.equal(want.length > 7);
    }
  });
});
