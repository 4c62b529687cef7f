import { expect } from "chai";
import { pageLink, pageLinkHeader, pageOf } from "../../../../src/api/rest/page-form";

describe("api/rest page form", () => {
  const all = Array.from({ length: 45 }, (_, i) => i);

  it("slices page n and counts total and pages", () => {
    const { items, pagination } = pageOf(all, { page: 3, limit: 20 }, "/api/v1/cameras", "page=3&limit=20");
    expect(items).to.deep.equal([40, 41, 42, 43, 44]);
    expect(pagination).to.include({ page: 3, limit: 20, total: 45, pages: 3, next: null });
    expect(pagination.prev).to.equal("/api/v1/cameras?page=2&limit=20");
  });

  it("has prev null on the first page and a next link keeping the other parameters", () => {
    const { pagination } = pageOf(all, { page: 1, limit: 20 }, "/api/v1/cameras", "status=active&limit=20");
    expect(pagination.prev).to.equal(null);
    expect(pagination.next).to.equal("/api/v1/cameras?status=active&limit=20&page=2");
    expect(pageLinkHeader(pagination)).to.equal(
      '</api/v1/cameras?status=active&limit=20&page=2>; rel="next"',
    );
  });

  it("answers a page past the last with no items and prev at the last page", () => {
    const { items, pagination } = pageOf(all, { page: 9, limit: 20 }, "/x", "page=9");
    expect(items).to.deep.equal([]);
    expect(pagination.prev).to.equal("/x?page=3");
    expect(pagination.next).to.equal(null);
  });

  it("has zero pages for an empty list", () => {
    const { pagination } = pageOf([], { page: 1, limit: 20 }, "/x", "");
    expect(pagination).to.include({ total: 0, pages: 0, next: null, prev: null });
    expect(pageLinkHeader(pagination)).to.equal(undefined);
    expect(pageLink("/x", "a=%C3%A9", 2)).to.equal("/x?a=%C3%A9&page=2");
  });
});
