import mqtt, { type MqttClient } from "mqtt";
import type { NotificationJob } from "./notification-job";

const clients = new Map<string, Promise<MqttClient>>();

function brokerOf(u: URL): string {
  const auth = u.username ? `${u.username}${u.password ? ":" + u.password : ""}@` : "";
  return `${u.protocol}//${auth}${u.host}`;
}

function infoValue(job: NotificationJob, key: string): string | undefined {
  return job.notifierInfo?.find((p) => p.key === key)?.value;
}

async function client(u: URL, version: 4 | 5, timeoutMs: number): Promise<MqttClient> {
  const key = `${brokerOf(u)}#${version}`;
  let c = clients.get(key);
  if (!c) {
    c = mqtt.connectAsync(
      brokerOf(u),
      { protocolVersion: version, connectTimeout: timeoutMs, reconnectPeriod: 1000 },
      false,
    );
    clients.set(key, c);
    c.catch(() => clients.delete(key));
  }
  return c;
}

/**
 * Publishes a notification to an MQTT broker (ETSI GS CIM 009 v1.8 §7.3 MQTT binding): the endpoint URI
 * names the broker and the topic (its path), `notifierInfo` may set `MQTT-Version` (mqtt3.1.1, mqtt5.0)
 * and `MQTT-QoS` (0, 1, 2). The message is `{"metadata": {...headers}, "body": notification}`. One
 * client per broker is kept open; QoS 1 and 2 resolve once the broker acknowledged.
 */
export async function sendMqtt(job: NotificationJob, timeoutMs: number): Promise<void> {
  const u = new URL(job.uri);
  const version = infoValue(job, "MQTT-Version") === "mqtt5.0" ? 5 : 4;
  const qos = Number(infoValue(job, "MQTT-QoS") ?? "0");
  if (![0, 1, 2].includes(qos)) throw new Error(`MQTT-QoS must be 0, 1 or 2, got ${qos}`);
  const topic = decodeURIComponent(u.pathname.replace(/^\//, ""));
  const payload = JSON.stringify({ metadata: job.headers, body: JSON.parse(job.body) as unknown });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client(u, version, timeoutMs).then((c) => c.publishAsync(topic, payload, { qos: qos as 0 | 1 | 2 })),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`MQTT publish not acknowledged within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Closes every MQTT client (shutdown). */
export async function closeMqttClients(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map(async (c) => (await c.catch(() => undefined))?.endAsync()));
}
