import { LocalLiveBus, type LiveBus } from "./live-bus";
import { RedisLiveBus } from "./redis-live-bus";

/** The live-event bus: in process, or through Redis pub/sub when `redisUrl` is set. */
export async function createLiveBus(
  redisUrl: string | undefined,
  channel: string,
  onError: (e: unknown) => void,
): Promise<LiveBus> {
  return redisUrl ? RedisLiveBus.open(redisUrl, channel, onError) : new LocalLiveBus(onError);
}
