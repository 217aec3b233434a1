import assert from "node:assert/strict";
import { StorageError } from "../../../lib/error.ts";
import { createLogger } from "../../../lib/log.ts";
import {
  loadMqttState,
  type MqttState,
  MqttStateFile,
  parseMqttState,
} from "../../../plugins/temp_eta/mqtt_store.ts";
import { ManualClock } from "./fakes.ts";

const state = (n: number): MqttState => ({
  broker: "mqtt://b:1883",
  prefix: "p",
  queue: Array.from({ length: n }, (_, i) => ({
    topic: "p/bed",
    payload: String(i),
    qos: 1 as const,
    retain: false,
  })),
  retained: [{ broker: "mqtt://b:1883", prefix: "p", topic: "p/status" }],
});

Deno.test("parseMqttState() rejects what is not a saved MQTT state", () => {
  assert.deepEqual(parseMqttState(JSON.stringify(state(2))), state(2));
  for (
    const text of [
      "{",
      "[]",
      JSON.stringify({ ...state(0), queue: [{ topic: "t", payload: "x", qos: 3, retain: false }] }),
      JSON.stringify({ ...state(0), retained: [{ topic: "t" }] }),
      JSON.stringify({ ...state(0), broker: 1 }),
    ]
  ) {
    assert.throws(() => parseMqttState(text), StorageError, text);
  }
});

function file(path: string) {
  const clock = new ManualClock();
  const lines: string[] = [];
  let current = state(1);
  const f = new MqttStateFile(path, {
    clock,
    logger: createLogger("t", { sink: (_l, line) => lines.push(line) }),
    snapshot: () => current,
  });
  return { f, clock, lines, set: (s: MqttState) => (current = s) };
}

Deno.test("MqttStateFile saves a second after a change, at once on flush, and atomically", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/mqtt_state.json`;
  const { f, clock, set } = file(path);
  assert.equal(await f.load(), null);
  f.changed();
  f.changed();
  assert.deepEqual(clock.pendingDelays(), [1000], "one save for many changes");
  clock.advance(1000);
  await f.flush();
  assert.deepEqual(await loadMqttState(path), state(1));
  set(state(3));
  f.changed();
  await f.flush();
  assert.deepEqual(clock.pendingDelays(), []);
  assert.deepEqual(await loadMqttState(path), state(3));
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["mqtt_state.json"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("MqttStateFile moves a damaged file aside and logs it, and logs a failed save once", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/mqtt_state.json`;
  await Deno.writeTextFile(path, "{not json");
  const { f, lines } = file(path);
  assert.equal(await f.load(), null);
  assert.equal(await Deno.readTextFile(`${path}.bad`), "{not json");
  assert.match(lines[0]!, /WARNING - MQTT state .* unreadable \(not JSON .*\); moved to .*\.bad$/);
  const missing = file(`${dir}/gone/mqtt_state.json`);
  for (let i = 0; i < 3; i++) {
    missing.f.changed();
    await missing.f.flush();
  }
  assert.equal(missing.lines.length, 1);
  assert.match(missing.lines[0]!, /WARNING - MQTT state not saved to .*gone\/mqtt_state\.json: /);
  await Deno.remove(dir, { recursive: true });
});
