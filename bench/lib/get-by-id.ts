import { entityId, makeEntities } from "./entities";
import { runLoad, type LoadResult } from "./load";
import type { Settings } from "./settings";

/** Upserts `count` bench entities into the service at `base`, 500 per batch. */
export async function fillEntities(
  base: string,
  count: number,
  headers: Record<string, string> = {},
): Promise<void> {
  for (let from = 0; from < count; from += 500) {
    const res = await fetch(`${base}/ngsi-ld/v1/entityOperations/upsert`, {
      method: "POST",
      headers: { "Content-Type": "application/ld+json", ...headers },
      body: JSON.stringify(makeEntities(from, Math.min(500, count - from), true)),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`upsert answered ${res.status}: ${text.slice(0, 200)}`);
  }
}

/** GET /ngsi-ld/v1/entities/{id} of random ones of the `count` bench entities, after a warm-up when `warm`. */
export async function getByIdLoad(
  base: string,
  s: Settings,
  count: number,
  headers: Record<string, string>,
  warm: boolean,
): Promise<LoadResult> {
  const requests = [
    {
      method: "GET" as const,
      path: `/ngsi-ld/v1/entities/${entityId(0)}`,
      headers: { accept: "application/json", ...headers },
      setupRequest: (req: object) => ({
        ...req,
        path: `/ngsi-ld/v1/entities/${entityId(Math.floor(Math.random() * count))}`,
      }),
    },
  ];
  if (warm && s.warmupSeconds > 0)
    await runLoad({ url: base, connections: s.connections, durationS: s.warmupSeconds, requests });
  return runLoad({ url: base, connections: s.connections, durationS: s.seconds, requests });
}
