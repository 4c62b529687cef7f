import { startTestApp, type TestApp } from "./test-app";

/**
 * Two brokers for the federation tests, named `broker-a` and `broker-b` (their `Via` names), each with a
 * 2 s context-source timeout so that a source that never answers ends a test quickly.
 */
export async function startBrokerPair(): Promise<[TestApp, TestApp]> {
  const a = await startTestApp({ FEDERATION_BROKER_ID: "broker-a", FEDERATION_TIMEOUT_MS: "2000" });
  const b = await startTestApp({ FEDERATION_BROKER_ID: "broker-b", FEDERATION_TIMEOUT_MS: "2000" });
  return [a, b];
}

/** Stops both brokers of {@link startBrokerPair}. */
export async function stopBrokerPair(a: TestApp, b: TestApp): Promise<void> {
  await a.destroy();
  await b.destroy();
}
