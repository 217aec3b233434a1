import { join } from "node:path";
import assert from "node:assert/strict";
import {
  DEFAULT_SOUNDS,
  renderDefaultSound,
  soundFileExists,
  SOUNDS_DIR,
  soundUrl,
} from "../../../plugins/temp_eta/sounds.ts";

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
