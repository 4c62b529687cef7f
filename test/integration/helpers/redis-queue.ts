import { randomBytes } from "node:crypto";
import { Queue } from "bullmq";
import IORedis from "ioredis";

/** The Redis of the development and CI machines (docs/design.md "Parts that are real"). */
export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** A queue name of its own for one test run, so helpers sharing the Redis never meet. */
export function uniqueQueueName(what: string): string {
  return `citygraph-test-${what}-${randomBytes(4).toString("hex")}`;
}

/** Fails with a clear message, never skips, when Redis is not there. */
export async function requireRedis(): Promise<void> {
  const c = new IORedis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await c.connect();
    await c.ping();
  } catch (e) {
    throw new Error(`These tests need Redis at ${REDIS_URL} (set REDIS_URL): ${(e as Error).message}`);
  } finally {
    c.disconnect();
  }
}

/** Deletes every key of a test queue. */
export async function dropQueue(name: string): Promise<void> {
  const connection = new IORedis(REDIS_URL, { maxRetriesPerRequest: null });
  const q = new Queue(name, { connection });
  await q.obliterate({ force: true });
  await q.close();
  await connection.quit().catch(() => undefined);
}

/** A test's own handle on a service's BullMQ queue: to pause it, look at its jobs, resume it. */
export async function openQueue(name: string): Promise<{ queue: Queue; close(): Promise<void> }> {
  const connection = new IORedis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection });
  await queue.waitUntilReady();
  return {
    queue,
    close: async () => {
      await queue.close();
      await connection.quit().catch(() => undefined);
    },
  };
}
