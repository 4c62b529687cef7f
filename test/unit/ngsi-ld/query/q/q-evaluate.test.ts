import { expect } from "chai";
import type { Entity } from "../../../../../src/ngsi-ld/model/entity";
import { parseQ } from "../../../../../src/ngsi-ld/query/q/q-parser";
import { matchesQ, resolveQ } from "../../../../../src/ngsi-ld/query/q/q-evaluate";
import { compileContext } from "../../../../../src/rdf/contexts/compile-context";
import { CORE_URL, loadContext } from "../../codec/local-contexts";

const ctx = compileContext([
  { "@context": { ex: "https://example.org/", speed: "ex:speed" } },
  loadContext(CORE_URL),
]);

const car: Entity = {
  id: "urn:ngsi-ld:Car:1",
  type: "Car",
  speed: { type: "Property", value: 80, observedAt: "2024-05-01T10:00:00Z", unitCode: "KMH" },
  name: { type: "Property", value: "Eiffel Tower" },
  almostFull: { type: "Property", value: false },
  seen: { type: "Property", value: { "@type": "DateTime", "@value": "2024-05-01T12:00:00Z" } },
  tags: { type: "Property", value: ["red", "fast"] },
  address: { type: "Property", value: { city: "Paris", zip: { code: 75001 } } },
  locatedIn: {
    type: "Relationship",
    object: "urn:ngsi-ld:City:Paris",
    since: { type: "Property", value: 2001, accuracy: { type: "Property", value: 0.9 } },
  },
  label: { type: "LanguageProperty", languageMap: { en: "Tower", fr: "Tour" } },
  config: { type: "JsonProperty", json: { mode: "eco", level: 3 } },
  temperature: [
    { type: "Property", value: 20, datasetId: "urn:ngsi-ld:Dataset:a" },
    { type: "Property", value: 30, datasetId: "urn:ngsi-ld:Dataset:b" },
  ],
};

const m = (q: string) => matchesQ(car, resolveQ(parseQ(q), ctx));

describe("q evaluator (ETSI GS CIM 009 v1.8 §4.9)", () => {
  const cases: [string, boolean][] = [
    ["speed>50", true],
    ["speed>80", false],
    ["speed>=80;speed<=80", true],
    ["ex:speed==80", true],
    ["https://example.org/speed==80", false], // dots split paths: full IRIs with dots are not q attribute names
    ["speed==70..90", true],
    ["speed!=70..90", false],
    ["speed==1,2,80", true],
    ["speed!=1,2", true],
    ['speed=="80"', false],
    ['speed!="80"', true],
    ['name=="Eiffel Tower"', true],
    ['name>"Eiffel"', true],
    ["name~=(?i)^eiffel", true],
    ["name~=^eiffel", false],
    ["name!~=Pisa", true],
    ["speed~=8", false],
    ["almostFull==false", true],
    ["almostFull==true", false],
    ["seen>2024-05-01T11:59:59Z", true],
    ["seen<2024-05-01T13:00:00+02:00", false],
    ["speed.observedAt>=2024-05-01T10:00:00Z", true],
    ["speed.observedAt<2024-05-01T10:00:00Z", false],
    ['speed.unitCode=="KMH"', true],
    ['tags=="fast"', true],
    ['tags=="slow"', false],
    ['address[city]=="Paris"', true],
    ["address[zip][code]==75001", true],
    ["address[country]", false],
    ["address[city]", true],
    ["locatedIn==urn:ngsi-ld:City:Paris", true],
    ['locatedIn=="urn:ngsi-ld:City:Paris"', true],
    ["locatedIn==urn:ngsi-ld:City:Pisa", false],
    ["locatedIn.since==2001", true],
    ["locatedIn.since.accuracy>0.5", true],
    ["locatedIn.until", false],
    ['label=="Tour"', true],
    ['label[en]=="Tour"', false],
    ['label[fr]=="Tour"', true],
    ['config[mode]=="eco"', true],
    ["temperature==30", true],
    ["temperature>25;temperature<25", true],
    ["temperature==25", false],
    ["speed", true],
    ["missing", false],
    ["missing!=1", false],
    ["(missing|speed>50);name", true],
    ["missing|speed<50", false],
  ];
  for (const [q, want] of cases) {
    it(`${q} -> ${want}`, () => expect(m(q)).to.equal(want));
  }
});
