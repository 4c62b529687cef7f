import { expect } from "chai";
import { airQualityIndex, aqiCategory, subIndex } from "../../../../../src/domain/traffic/environment/aqi";

describe("domain/traffic/aqi: US EPA AQI (EPA-454/B-24-002 breakpoints)", () => {
  it("interpolates PM2.5 inside its bands, truncating to 0.1 µg/m³", () => {
    expect(subIndex("pm25", 0)).to.equal(0);
    expect(subIndex("pm25", 9.0)).to.equal(50);
    expect(subIndex("pm25", 9.1)).to.equal(51);
    expect(subIndex("pm25", 35.4)).to.equal(100);
    expect(subIndex("pm25", 35.49)).to.equal(100); // truncated, not rounded
    expect(subIndex("pm25", 35.5)).to.equal(101);
    expect(subIndex("pm25", 55.5)).to.equal(151);
    expect(subIndex("pm25", 125.4)).to.equal(200);
    expect(subIndex("pm25", 400)).to.equal(500);
  });

  it("converts gases from µg/m³ to ppb/ppm at 25 °C before the table", () => {
    // 100 ppb of NO2 = 188.2 µg/m³ -> AQI 100; 9.4 ppm of CO = 10,767 µg/m³ -> 100
    expect(subIndex("no2", (100 * 46.01) / 24.45)).to.equal(100);
    expect(subIndex("co", (9.4 * 1000 * 28.01) / 24.45)).to.equal(100);
    expect(subIndex("pm10", 154)).to.equal(100);
  });

  it("takes the highest sub-index as the AQI and names its pollutant", () => {
    const r = airQualityIndex({ pm25: 10, pm10: 200, no2: 5, so2: 1, co: 200, o3: 20 });
    expect(r.dominant).to.equal("pm10");
    expect(r.aqi).to.equal(subIndex("pm10", 200));
    expect(r.category).to.equal("unhealthy_for_sensitive_groups");
    expect(airQualityIndex({ pm25: 5, pm10: NaN, no2: NaN, so2: NaN, co: NaN, o3: NaN }).dominant).to.equal(
      "pm25",
    );
  });

  it("names the categories at the band edges", () => {
    expect([50, 51, 100, 101, 150, 151, 200, 201, 300, 301].map(aqiCategory)).to.deep.equal([
      "good",
      "moderate",
      "moderate",
      "unhealthy_for_sensitive_groups",
      "unhealthy_for_sensitive_groups",
      "unhealthy",
      "unhealthy",
      "very_unhealthy",
      "very_unhealthy",
      "hazardous",
    ]);
  });
});
