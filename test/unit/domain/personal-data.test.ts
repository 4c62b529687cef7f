import { expect } from "chai";
import { PersonalData } from "../../../src/domain/personal-data";
import type { GraphWrite } from "../../../src/store/graph-store";

const contact = { type: "Property", value: { isAnonymous: false, name: "An", phone: "0901" } };
const report = {
  id: "urn:ngsi-ld:CitizenReport:r1",
  type: "CitizenReport",
  status: { type: "Property", value: "pending" },
};

describe("domain/personal-data", () => {
  it("keeps the personal attributes of a new entity apart, durably, and puts them back on reads", async () => {
    const commits: GraphWrite[][] = [];
    const store = {
      commit: async (_t: string, writes: GraphWrite[]) => (commits.push(writes), commits.length),
      select: async () => [],
      tenants: async () => [],
    };
    const p = new PersonalData(store);
    const shared = await p.keepApart({ ...report, reporter: contact });
    expect(shared).to.deep.equal(report);
    expect(commits).to.have.length(1);
    expect(commits[0][0].graph).to.equal(
      "urn:citygraph:internal:personal:urn%3Angsi-ld%3ACitizenReport%3Ar1",
    );
    expect(commits[0][0].triples).to.include("0901");
    expect(p.withPersonal({ ...report })).to.deep.equal({ ...report, reporter: contact });
    await p.forget(report.id);
    expect(commits[1][0].triples).to.equal(null);
    expect(p.has(report.id)).to.equal(false);
    expect(p.withPersonal({ ...report })).to.deep.equal(report);
  });

  it("leaves documents without personal attributes, and other types, as they are", async () => {
    const p = new PersonalData();
    const camera = { id: "urn:ngsi-ld:TrafficCamera:1", type: "TrafficCamera", reporter: contact };
    expect(await p.keepApart(camera)).to.equal(camera);
    expect(await p.keepApart(report)).to.equal(report);
    expect(p.has(report.id)).to.equal(false);
  });
});
