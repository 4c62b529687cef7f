import { expect } from "chai";
import { entityToTriples, type NgsiEntity } from "../../../../src/ngsi-ld/codec";
import { DiscoveryIndex } from "../../../../src/ngsi-ld/discovery/discovery-index";
import { ENTITY_META_MEMBERS } from "../../../../src/ngsi-ld/model/attribute-kinds";
import { compileContext } from "../../../../src/rdf/contexts/compile-context";
import type { GraphStore } from "../../../../src/store/graph-store";
import { EntityIndex } from "../../../../src/store/indexes/entity-index";
import { generateEntity, Rng } from "../codec/entity-generator";
import { CORE_URL, ETSI_URL, loadContext } from "../codec/local-contexts";
import { withTempStore } from "../../store/helpers";

const ctx = compileContext([loadContext(ETSI_URL), loadContext(CORE_URL)]);
const NGSI = "https://uri.etsi.org/ngsi-ld/";

type Summary = Record<string, unknown>;

/** The naive answer: per type and per attribute, recomputed from the entities themselves. */
function naive(entities: Map<string, NgsiEntity>): { types: Summary; attrs: Summary } {
  const types: Record<string, { entities: number; attrs: Record<string, Record<string, number>> }> = {};
  const attrs: Record<
    string,
    { instances: number; kinds: Record<string, number>; types: Record<string, number> }
  > = {};
  for (const e of entities.values()) {
    const ts = (Array.isArray(e.type) ? e.type : [e.type]).map((t) => ctx.expandTerm(t as string));
    for (const t of new Set(ts)) (types[t] ??= { entities: 0, attrs: {} }).entities++;
    for (const key of Object.keys(e)) {
      if (ENTITY_META_MEMBERS.has(key)) continue;
      const iri = ctx.expandTerm(key);
      const insts = (Array.isArray(e[key]) ? e[key] : [e[key]]) as { type: string }[];
      const a = (attrs[iri] ??= { instances: 0, kinds: {}, types: {} });
      for (const inst of insts) {
        const kind = NGSI + inst.type;
        a.instances++;
        a.kinds[kind] = (a.kinds[kind] ?? 0) + 1;
        for (const t of new Set(ts)) {
          const k = (types[t].attrs[iri] ??= {});
          k[kind] = (k[kind] ?? 0) + 1;
        }
      }
      for (const t of new Set(ts)) a.types[t] = (a.types[t] ?? 0) + 1;
    }
  }
  return { types, attrs };
}

const obj = (m: ReadonlyMap<string, unknown>): Summary =>
  Object.fromEntries(
    [...m].map(([k, v]) => [
      k,
      v instanceof Map ? obj(v) : typeof v === "object" && v !== null ? plain(v) : v,
    ]),
  );
const plain = (o: object): Summary =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v instanceof Map ? obj(v) : v]));

function summary(index: DiscoveryIndex, tenant: string): { types: Summary; attrs: Summary } {
  return { types: obj(index.types(tenant)), attrs: obj(index.attributes(tenant)) };
}

describe("DiscoveryIndex (ETSI GS CIM 009 v1.8 §5.7.5 to §5.7.10; docs/design.md derived indexes)", () => {
  let store: GraphStore;
  withTempStore((s) => (store = s));

  it("model-based: equals a naive count over random entities, through a build racing commits, updates, deletes and a rebuild", async () => {
    const rng = new Rng(11);
    const entities = new EntityIndex();
    store.onCommit((e) => entities.apply(e));
    const index = new DiscoveryIndex(store, entities);
    store.onCommit((e) => index.apply(e));
    const live = new Map<string, NgsiEntity>();
    const commitSome = async (n: number) => {
      const save: NgsiEntity[] = [];
      const remove: string[] = [];
      for (let k = 0; k < n; k++) {
        const e = generateEntity(rng, rng.int(150), true);
        if (live.has(e.id) && rng.chance(0.2)) {
          if (!remove.includes(e.id) && !save.some((s) => s.id === e.id)) remove.push(e.id);
        } else if (!remove.includes(e.id)) {
          const at = save.findIndex((s) => s.id === e.id);
          if (at >= 0) save.splice(at, 1);
          save.push(e);
        }
      }
      await store.commit("", [
        ...save.map((e) => ({ graph: e.id, triples: entityToTriples(e, ctx) })),
        ...remove.map((id) => ({ graph: id, triples: null })),
      ]);
      for (const e of save) live.set(e.id, e);
      for (const id of remove) live.delete(id);
    };
    await commitSome(80);
    await Promise.all([index.ready(), commitSome(40), commitSome(40)]);
    expect(summary(index, "")).to.deep.equal(naive(live));
    for (let r = 0; r < 5; r++) {
      await commitSome(30);
      expect(summary(index, "")).to.deep.equal(naive(live));
    }
    expect(Object.keys(naive(live).attrs).length).to.be.greaterThan(10);
    const rebuiltEntities = new EntityIndex();
    await rebuiltEntities.rebuild(store);
    const rebuilt = new DiscoveryIndex(store, rebuiltEntities);
    await rebuilt.ready();
    expect(summary(rebuilt, "")).to.deep.equal(summary(index, ""));
    expect(summary(rebuilt, "other")).to.deep.equal({ types: {}, attrs: {} });
  });
});
