import {
  createSourceEventStream,
  execute,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
} from "graphql";
import type { LiveBus } from "../../events/live-bus";
import type { LiveEvent } from "../../events/live-event";
import type { SocketOutbox } from "../http/socket-outbox";
import { SharedMessage } from "../http/shared-message";
import { formatGraphqlError } from "./graphql-errors";
import { LiveSource } from "./live-source";

/** One graphql-ws subscription on one socket. */
export interface Subscriber {
  /** The graphql-ws operation id. */
  id: string;
  out: SocketOutbox;
  /** Called once when the subscription ends (or fails to start). */
  onEnd(): void;
}

/**
 * GraphQL subscriptions over WebSocket, fanned out: the subscribers of one operation (the same
 * document, operation name and variables) form a group, filed once on the live bus. Each event is
 * executed once per group and its `next` message rendered once; every subscriber of the group gets
 * those bytes behind its own operation id, with no promise or execution of its own. A result depends
 * only on the event and the selection (no field a subscription selects reads the principal).
 */
export class SubscriptionFanout {
  private readonly groups = new WeakMap<DocumentNode, Map<string, Promise<Group | ExecutionResult>>>();

  constructor(
    private readonly bus: LiveBus,
    /** A fresh resolver context (fresh loaders) for one execution. */
    private readonly context: () => unknown,
    private readonly onError: (e: unknown) => void,
  ) {}

  /**
   * Joins `s` to the group of `args`. Gives what graphql-ws iterates while the subscription lasts
   * (nothing: the group sends), or the errors of an operation that cannot start.
   */
  async join(args: ExecutionArgs, s: Subscriber): Promise<AsyncIterableIterator<never> | ExecutionResult> {
    for (;;) {
      const group = await this.groupOf(args);
      if (!(group instanceof Group)) {
        s.onEnd();
        return group;
      }
      if (group.add(s)) return new Membership(() => group.remove(s));
      // the group emptied while this subscriber waited for it: a new one is made
    }
  }

  private groupOf(args: ExecutionArgs): Promise<Group | ExecutionResult> {
    let byOperation = this.groups.get(args.document);
    if (!byOperation) this.groups.set(args.document, (byOperation = new Map()));
    const operations = byOperation;
    const key = `${args.operationName ?? ""}\u0000${JSON.stringify(args.variableValues ?? {})}`;
    let group = operations.get(key);
    if (!group) {
      group = this.open(args, () => operations.delete(key));
      operations.set(key, group);
      void group.then((g) => g instanceof Group || operations.delete(key));
    }
    return group;
  }

  private async open(args: ExecutionArgs, onEmpty: () => void): Promise<Group | ExecutionResult> {
    const base = {
      schema: args.schema,
      document: args.document,
      operationName: args.operationName,
      variableValues: args.variableValues,
    };
    const source = await createSourceEventStream({ ...base, contextValue: this.context() });
    if (source instanceof LiveSource)
      return new Group(base, source, this.bus, this.context, this.onError, onEmpty);
    if (Symbol.asyncIterator in source) throw new Error("A subscription's source must be a LiveSource");
    return source;
  }
}

/** The subscribers of one operation, filed on the bus under its filter while it has any. */
class Group {
  /** Each subscriber with the head of its messages (`{"id":"<operation id>",`). */
  private readonly members = new Map<Subscriber, string>();
  private readonly cancel: () => void;
  private open = true;
  /** Events are executed one after the other, so that each socket gets them in order. */
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly args: Omit<ExecutionArgs, "contextValue" | "rootValue">,
    source: LiveSource,
    bus: LiveBus,
    private readonly context: () => unknown,
    private readonly onError: (e: unknown) => void,
    private readonly onEmpty: () => void,
  ) {
    this.cancel = bus.subscribe(source.filter, (e) => this.publish(e));
  }

  /** False when the group has closed (its last member left). */
  add(s: Subscriber): boolean {
    if (this.open) this.members.set(s, `{"id":${JSON.stringify(s.id)},`);
    return this.open;
  }

  remove(s: Subscriber): void {
    if (!this.members.delete(s)) return;
    s.onEnd();
    if (this.members.size > 0) return;
    this.open = false;
    this.cancel();
    this.onEmpty();
  }

  private publish(e: LiveEvent): void {
    // those who join after the event was published do not get it
    const members = [...this.members.keys()];
    this.tail = this.tail.then(() => this.deliver(e, members)).catch(this.onError);
  }

  private async deliver(e: LiveEvent, members: Subscriber[]): Promise<void> {
    const result = await execute({ ...this.args, rootValue: e, contextValue: this.context() });
    const payload = result.errors
      ? { ...result, errors: result.errors.map((err) => formatGraphqlError(err).toJSON()) }
      : result;
    const message = new SharedMessage(JSON.stringify({ type: "next", payload }));
    const zone = e.channel === "traffic" ? e.data.zoneId : undefined;
    for (const m of members) {
      const head = this.members.get(m);
      if (head !== undefined) m.out.send(message.with(head), zone && `${m.id}\u0000${zone}`);
    }
  }
}

/** What graphql-ws iterates for a fanned-out subscription: nothing, until return() ends it. */
class Membership implements AsyncIterableIterator<never> {
  private end!: (r: IteratorResult<never>) => void;
  private readonly ended = new Promise<IteratorResult<never>>((resolve) => (this.end = resolve));

  constructor(private readonly leave: () => void) {}

  next(): Promise<IteratorResult<never>> {
    return this.ended;
  }

  return(): Promise<IteratorResult<never>> {
    this.leave();
    this.end({ done: true, value: undefined });
    return this.ended;
  }

  throw(): Promise<IteratorResult<never>> {
    return this.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
