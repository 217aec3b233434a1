import { join } from "node:path";
import assert from "node:assert/strict";
import { HeaterHistory } from "../../../plugins/temp_eta/history.ts";
import {
  DEFAULT_SOUNDS,
  renderDefaultSound,
  soundFileExists,
  SOUNDS_DIR,
  soundUrl,
} from "../../../plugins/temp_eta/sounds.ts";

Deno.test("HeaterHistory keeps at most history_max_samples, dropping the oldest", () => {
  const h = new HeaterHistory({ maxAge: 60, maxSamples: 10 });
  for (let t = 0; t < 25; t++) h.add({ t, actual: t });
  assert.equal(h.samples.length, 10);
  assert.equal(h.samples[0]!.t, 15);
  h.setLimits({ maxAge: 60, maxSamples: 4 });
  assert.deepEqual(h.samples.map((s) => s.t), [21, 22, 23, 24]);
});

Deno.test("HeaterHistory.cleanup() deletes samples older than history_max_age", () => {
  const h = new HeaterHistory({ maxAge: 10, maxSamples: 1000 });
  for (let t = 0; t <= 30; t++) h.add({ t, actual: 20 });
  assert.equal(h.samples.length, 31, "age applies at cleanup only");
  assert.equal(h.cleanup(), 20);
  assert.equal(h.samples[0]!.t, 20);
  assert.equal(h.cleanup(), 0);
});

Deno.test("HeaterHistory keeps time order and ignores non-finite readings", () => {
  const h = new HeaterHistory({ maxAge: 60, maxSamples: 100 });
  h.add({ t: 1, actual: 20 });
  h.add({ t: 0.5, actual: 99 });
  h.add({ t: 1, actual: 21 });
  h.add({ t: 2, actual: Number.NaN });
  assert.deepEqual(h.samples, [{ t: 1, actual: 21 }]);
  h.clear();
  assert.equal(h.last, undefined);
  assert.equal(h.cleanup(), 0);
});

Deno.test("the default sound files equal the generator's output", async () => {
  for (const name of Object.keys(DEFAULT_SOUNDS)) {
    const onDisk = await Deno.readFile(join(SOUNDS_DIR, name));
    const generated = renderDefaultSound(name);
    assert.deepEqual(onDisk, generated, `${name} is stale: run plugins/temp_eta/sounds.ts`);
    const text = new TextDecoder().decode(onDisk.subarray(0, 16));
    assert.equal(text, "RIFFøWAVEfmt ".replace("ø", text.slice(4, 8)));
    const view = new DataView(onDisk.buffer, onDisk.byteOffset);
    assert.equal(view.getUint16(22, true), 1, "mono");
    assert.equal(view.getUint32(24, true), 16000, "sample rate");
    assert.equal(view.getUint32(40, true), onDisk.length - 44, "data size");
  }
});

Deno.test("soundUrl() maps 'default' to the event's file under the static route", () => {
  assert.equal(soundUrl("heating", "default"), "/plugin/temp_eta/static/sounds/heating_done.wav");
  assert.equal(soundUrl("cooling", "default"), "/plugin/temp_eta/static/sounds/cooling_done.wav");
  assert.equal(
    soundUrl("cooling", "heating_done.wav"),
    "/plugin/temp_eta/static/sounds/heating_done.wav",
  );
});

Deno.test("soundFileExists() accepts only plain names present in the folder", () => {
  assert.equal(soundFileExists("heating_done.wav"), true);
  assert.equal(soundFileExists("nope.wav"), false);
  assert.equal(soundFileExists("../mod.ts"), false);
  assert.equal(soundFileExists(".x.wav"), false);
  assert.throws(() => renderDefaultSound("nope.wav"), RangeError);
});
