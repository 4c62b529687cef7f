import { expect } from "chai";
import { pageInfo, pageLink, pageLinkHeader } from "../../../../src/api/rest/page-form";

describe("api/rest page form", () => {
  it("counts total and pages and links the neighbouring pages", () => {
    const p = pageInfo(45, { page: 3, limit: 20 }, "/api/v1/cameras", "page=3&limit=20");
    expect(p).to.include({ page: 3, limit: 20, total: 45, pages: 3, next: null });
    expect(p.prev).to.equal("/api/v1/cameras?page=2&limit=20");
  });

  it("has prev null on the first page and a next link keeping the other parameters", () => {
    const p = pageInfo(45, { page: 1, limit: 20 }, "/api/v1/cameras", "status=active&limit=20");
    expect(p.prev).to.equal(null);
    expect(p.next).to.equal("/api/v1/cameras?status=active&limit=20&page=2");
    expect(pageLinkHeader(p)).to.equal('</api/v1/cameras?status=active&limit=20&page=2>; rel="next"');
  });

  it("points prev of a page past the last at the last page", () => {
    const p = pageInfo(45, { page: 9, limit: 20 }, "/x", "page=9");
    expect(p.prev).to.equal("/x?page=3");
    expect(p.next).to.equal(null);
  });

  it("has zero pages for an empty list", () => {
    const p = pageInfo(0, { page: 1, limit: 20 }, "/x", "");
    expect(p).to.include({ total: 0, pages: 0, next: null, prev: null });
    expect(pageLinkHeader(p)).to.equal(undefined);
    expect(pageLink("/x", "a=%C3%A9", 2)).to.equal("/x?a=%C3%A9&page=2");
  });
});
