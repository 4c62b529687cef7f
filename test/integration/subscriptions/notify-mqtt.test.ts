import { randomBytes } from "node:crypto";
import { expect } from "chai";
import mqtt from "mqtt";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const MQTT_URL = process.env.MQTT_URL ?? "mqtt://127.0.0.1:1883";

describe("MQTT notifications against the real Mosquitto (ETSI GS CIM 009 v1.8 §7.3)", function () {
  this.timeout(30_000);
  let app: TestApp;
  let client: mqtt.MqttClient;
  const topic = `citygraph-test/${randomBytes(4).toString("hex")}/notify`;
  const messages: {
    metadata: Record<string, string>;
    body: { subscriptionId: string; data: Record<string, unknown>[] };
  }[] = [];

  before(async () => {
    try {
      client = await mqtt.connectAsync(MQTT_URL, { connectTimeout: 3000, reconnectPeriod: 0 });
    } catch (e) {
      throw new Error(`This test needs Mosquitto at ${MQTT_URL} (set MQTT_URL): ${(e as Error).message}`);
    }
    await client.subscribeAsync(topic, { qos: 1 });
    client.on("message", (_t, payload) =>
      messages.push(JSON.parse(payload.toString()) as (typeof messages)[number]),
    );
    app = await startTestApp();
  });
  after(async () => {
    await app?.destroy();
    await client?.endAsync();
  });

  it("publishes {metadata, body} to the endpoint's topic with the requested QoS", async () => {
    const id = "urn:ngsi-ld:Subscription:mqtt";
    const r = await http(app.url, "POST", "/ngsi-ld/v1/subscriptions", {
      id,
      type: "Subscription",
      entities: [{ type: "Camera" }],
      notification: {
        format: "keyValues",
        endpoint: {
          uri: `${MQTT_URL}/${topic}`,
          accept: "application/json",
          notifierInfo: [{ key: "MQTT-QoS", value: "1" }],
          receiverInfo: [{ key: "X-Token", value: "t1" }],
        },
      },
    });
    expect(r.status).to.equal(201);
    await http(app.url, "POST", "/ngsi-ld/v1/entities", {
      id: "urn:ngsi-ld:Camera:m1",
      type: "Camera",
      speed: { type: "Property", value: 7 },
    });
    for (let i = 0; i < 200 && messages.length === 0; i++) await new Promise((res) => setTimeout(res, 25));
    expect(messages).to.have.length(1);
    expect(messages[0].metadata).to.include({ "Content-Type": "application/json", "X-Token": "t1" });
    expect(messages[0].metadata.Link).to.contain("ngsi-ld-core-context");
    expect(messages[0].body.subscriptionId).to.equal(id);
    expect(messages[0].body.data).to.deep.equal([{ id: "urn:ngsi-ld:Camera:m1", type: "Camera", speed: 7 }]);
    await new Promise((res) => setTimeout(res, 2500));
    const s = (await http(app.url, "GET", `/ngsi-ld/v1/subscriptions/${id}`)).body as {
      notification: object;
    };
    expect(s.notification).to.include({ timesSent: 1, status: "ok" });
  });
});
