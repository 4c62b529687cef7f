import { expect } from "chai";
import { estimateUvIndex } from "../../../../../src/domain/traffic/environment/uv-index";

describe("domain/traffic UV index estimate", () => {
  it("estimates the UV index from the sun and clouds: 0 at night, high at a clear tropical noon, less under cloud", () => {
    const hcmc = { lat: 10.78, lon: 106.7 };
    const noon = Date.UTC(2026, 3, 15, 5, 0); // 12:00 local in April
    expect(estimateUvIndex(hcmc, Date.UTC(2026, 3, 15, 16, 0), 0)).to.equal(0);
    expect(estimateUvIndex(hcmc, noon, 0)).to.be.within(11, 13);
    expect(estimateUvIndex(hcmc, noon, 1)).to.be.below(estimateUvIndex(hcmc, noon, 0) * 0.5);
  });
});
