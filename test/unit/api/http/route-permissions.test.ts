import { expect } from "chai";
import { accessOf, DEFAULT_PERMISSIONS } from "../../../../src/api/http/route-permissions";

describe("api/http/route-permissions", () => {
  const t = DEFAULT_PERMISSIONS;
  it("leaves paths outside the faces open and reads GETs by default", () => {
    expect(accessOf("GET", "/health", t)).to.equal("open");
    expect(accessOf("GET", "/", t)).to.equal("open");
    expect(accessOf("GET", "/ngsi-ld/v1/entities", t)).to.equal("read");
    expect(accessOf("POST", "/ngsi-ld/v1/entities", t)).to.equal("write");
    expect(accessOf("GET", "/ws", t)).to.equal("read");
  });

  it("says where a POST reads, where a viewer writes, and what only an admin does", () => {
    expect(accessOf("POST", "/sparql", t)).to.equal("read");
    expect(accessOf("POST", "/graphql", t)).to.equal("read");
    expect(accessOf("POST", "/ngsi-ld/v1/entityOperations/query", t)).to.equal("read");
    expect(accessOf("POST", "/v1/citizen-reports", t)).to.equal("report");
    expect(accessOf("POST", "/api/v1/accidents", t)).to.equal("report");
    expect(accessOf("PATCH", "/v1/accidents/a1", t)).to.equal("write");
    expect(accessOf("DELETE", "/api/v1/alerts/subscriptions/s1", t)).to.equal("own-alerts");
    expect(accessOf("GET", "/v1/admin/users", t)).to.equal("admin");
    expect(accessOf("DELETE", "/ngsi-ld/v1/entities", t)).to.equal("admin");
    expect(accessOf("DELETE", "/ngsi-ld/v1/entities/urn:x", t)).to.equal("write");
    expect(accessOf("GET", "/ngsi-ld/v1/subscriptions/urn:s", t)).to.equal("write");
    expect(accessOf("GET", "/ngsi-ld/v1/csourceSubscriptions", t)).to.equal("write");
    expect(accessOf("GET", "/ngsi-ld/v1/csourceRegistrations", t)).to.equal("read");
    expect(accessOf("POST", "/v1/auth/login", t)).to.equal("open");
    expect(accessOf("POST", "/api/v1/auth/logout", t)).to.equal("optional");
  });

  it("ignores trailing slashes as the routers do, and matches case as they do", () => {
    expect(accessOf("DELETE", "/ngsi-ld/v1/entities/", t)).to.equal("admin");
    expect(accessOf("DELETE", "/ngsi-ld/v1/entities//", t)).to.equal("admin");
    expect(accessOf("GET", "/ngsi-ld/v1/subscriptions/", t)).to.equal("write");
    expect(accessOf("POST", "/sparql/", t)).to.equal("read");
    expect(accessOf("GET", "/v1/admin/", t)).to.equal("admin");
    expect(accessOf("GET", "/ngsi-ld/v1/Subscriptions", t)).to.equal("read"); // no route has this spelling
    expect(accessOf("GET", "//", t)).to.equal("open");
  });

  it("lets a face's own lines come first", () => {
    const own = [{ method: "POST", path: /^\/v1\/cameras\/[^/]+\/ping$/, access: "read" as const }];
    expect(accessOf("POST", "/v1/cameras/c1/ping", [...own, ...t])).to.equal("read");
  });
});
