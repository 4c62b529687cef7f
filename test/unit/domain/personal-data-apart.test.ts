import { expect } from "chai";
import { PersonalData } from "../../../src/domain/personal-data";
import { personalDataGuard } from "../../../src/domain/personal-data-guard";
import { movePersonalDataApart, type SharedEntities } from "../../../src/domain/personal-data-move";
import { TRAFFIC_NS } from "../../../src/domain/vocabulary";
import type { Entity } from "../../../src/ngsi-ld/model/entity";
import type { CompiledContext } from "../../../src/rdf/contexts/compiled-context";

/** The traffic context as far as these tests need it: a term is the ontology's IRI. */
const traffic = { expandTerm: (t: string) => (t.includes(":") ? t : TRAFFIC_NS + t) } as CompiledContext;
const contact = (name: string) => ({ type: "Property", value: { isAnonymous: false, name } });
const REPORT_TYPE = [TRAFFIC_NS + "CitizenReport"];
const report = (id: string, extra: Record<string, unknown> = {}): Entity => ({
  id,
  type: "CitizenReport",
  status: { type: "Property", value: "pending" },
  ...extra,
});

describe("domain/personal-data-guard", () => {
  it("takes personal attributes out of any write of the default tenant, and adds them to the record", async () => {
    const personal = new PersonalData();
    await personal.keep("urn:r1", { reporter: contact("An"), other: 1 });
    const guard = personalDataGuard(personal, traffic);
    const out = await guard.apart("", report("urn:r1", { reporter: contact("Binh") }), REPORT_TYPE, traffic);
    expect(out).to.deep.equal(report("urn:r1"));
    expect(personal.withPersonal(report("urn:r1"))).to.deep.include({ reporter: contact("Binh"), other: 1 });
  });

  it("leaves other tenants, other types and writes without personal attributes as they are", async () => {
    const personal = new PersonalData();
    const guard = personalDataGuard(personal, traffic);
    const withContact = report("urn:r2", { reporter: contact("Chi") });
    expect(await guard.apart("t1", withContact, REPORT_TYPE, traffic)).to.equal(withContact);
    const camera = { id: "urn:c1", type: "TrafficCamera", reporter: contact("Chi") };
    expect(await guard.apart("", camera, [TRAFFIC_NS + "TrafficCamera"], traffic)).to.equal(camera);
    const plain = report("urn:r3");
    expect(await guard.apart("", plain, REPORT_TYPE, traffic)).to.equal(plain);
    expect(personal.has("urn:r2") || personal.has("urn:r3")).to.equal(false);
  });
});

describe("domain/personal-data-move", () => {
  /** A shared graph of entities and the attributes their temporal histories hold. */
  function sharedOf(entities: Entity[], history: Record<string, string[]>) {
    const byId = new Map(entities.map((e) => [e.id, { ...e }]));
    const dropped: string[] = [];
    const shared: SharedEntities = {
      idsOfType: (iri) => (iri === REPORT_TYPE[0] ? [...byId.keys()] : []),
      read: async (id) => byId.get(id),
      drop: async (id, name) => {
        delete byId.get(id)![name];
        dropped.push(`${id} ${name}`);
      },
      inHistory: (id, name) => (history[id] ?? []).includes(name),
      dropHistory: async (id, name) => {
        history[id] = history[id].filter((n) => n !== name);
        dropped.push(`${id} history ${name}`);
      },
    };
    return { shared, byId, dropped, history };
  }

  it("moves a reporter written onto a report whose personal data is apart already, and its history", async () => {
    const personal = new PersonalData();
    await personal.keep("urn:r1", { reporter: contact("An") });
    const s = sharedOf([report("urn:r1", { reporter: contact("Patched") })], { "urn:r1": ["reporter"] });
    expect(await movePersonalDataApart(s.shared, personal, traffic)).to.equal(1);
    expect(s.byId.get("urn:r1")).to.deep.equal(report("urn:r1"));
    expect(s.history["urn:r1"]).to.deep.equal([]);
    expect(personal.withPersonal(report("urn:r1")).reporter).to.deep.equal(contact("Patched"));
  });

  it("cleans a history that holds a reporter the entity no longer has; leaves clean entities alone", async () => {
    const personal = new PersonalData();
    const s = sharedOf([report("urn:r2"), report("urn:r3")], { "urn:r2": ["reporter", "status"] });
    expect(await movePersonalDataApart(s.shared, personal, traffic)).to.equal(1);
    expect(s.dropped).to.deep.equal(["urn:r2 history reporter"]);
    expect(s.history["urn:r2"]).to.deep.equal(["status"]);
    expect(personal.has("urn:r2")).to.equal(false);
  });
});
