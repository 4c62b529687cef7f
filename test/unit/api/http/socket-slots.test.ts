import { expect } from "chai";
import { SocketSlots } from "../../../../src/api/http/socket-slots";
import { AppError } from "../../../../src/errors";
import type { Principal } from "../../../../src/auth/principal";

const user = (id: string): Principal => ({ id, kind: "user", role: "viewer", tenants: [] });

describe("SocketSlots", () => {
  it("gives each principal `max` slots, refuses one more with 429, and takes each back once", () => {
    const slots = new SocketSlots(2);
    const a1 = slots.take(user("a"));
    slots.take(user("a"));
    const refused = (() => {
      try {
        slots.take(user("a"));
      } catch (e) {
        return e;
      }
    })();
    expect(refused).to.be.instanceOf(AppError);
    expect((refused as AppError).kind).to.equal("TooManyRequests");
    expect((refused as AppError).message).to.equal("Too many open sockets for this user (at most 2)");
    slots.take(user("b"));
    a1();
    a1();
    expect(slots.count("a")).to.equal(1);
    slots.take(user("a"));
    expect(slots.count("a")).to.equal(2);
  });
});
