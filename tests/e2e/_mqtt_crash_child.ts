/**
 * A process that holds a real MQTT connection of the temperature ETA plugin's publisher until it
 * is killed (the last-will scenario of `mqtt_availability_test.ts`): `deno run -A
 * _mqtt_crash_child.ts <port> <prefix>` prints `connected` once the broker accepted it. It exits
 * by itself after a minute should the test never kill it.
 *
 * @module
 */
import { systemClock } from "../../lib/clock.ts";
import { createLogger } from "../../lib/log.ts";
import { MqttPublisher } from "../../plugins/temp_eta/mqtt.ts";
import { validateSettings } from "../../plugins/temp_eta/settings.ts";

const [port, prefix] = Deno.args;
const publisher = new MqttPublisher({
  clock: systemClock,
  logger: createLogger("crash_child", { sink: () => {} }),
});
publisher.configure(validateSettings({
  mqtt_enabled: true,
  mqtt_broker: "127.0.0.1",
  mqtt_port: Number(port),
  mqtt_topic_prefix: prefix,
}));
setTimeout(() => Deno.exit(1), 60_000);
for (let i = 0; i < 500 && !publisher.status().connected; i++) {
  await new Promise((r) => setTimeout(r, 20));
}
const line = publisher.status().connected ? "connected\n" : "not connected\n";
await Deno.stdout.write(new TextEncoder().encode(line));
