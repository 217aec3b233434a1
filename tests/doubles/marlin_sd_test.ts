import assert from "node:assert/strict";
import { parseCommand } from "./marlin_lines.ts";
import { SdCard } from "./marlin_sd.ts";

const FILES = { "CUBE.GCO": "G1 X1\n".repeat(100), "BENCHY.GCO": "G28\n" };
const run = (card: SdCard, command: string) => card.handle(parseCommand(command));

Deno.test("M20 lists the card's files with their sizes between Begin and End file list", () => {
  const card = new SdCard(FILES);
  assert.deepEqual(run(card, "M20"), [
    "Begin file list",
    "CUBE.GCO 600",
    "BENCHY.GCO 4",
    "End file list",
  ]);
  assert.deepEqual(run(card, "M21"), ["echo:SD card ok"]);
  assert.equal(run(card, "M104 S200"), null, "not an SD command");
});

Deno.test("M23 selects a file in any case; a missing one fails to open", () => {
  const card = new SdCard(FILES);
  assert.deepEqual(run(card, "M23 cube.gco"), ["File opened: CUBE.GCO Size: 600", "File selected"]);
  assert.deepEqual(run(card, "M23 nothing.gco"), ["echo:open failed, File: nothing.gco."]);
  assert.deepEqual(run(card, "M27"), ["Not SD printing"]);
});

Deno.test("an SD print advances by bytes per second, pauses with M25 and ends with Done printing file", () => {
  const card = new SdCard(FILES, 100);
  run(card, "M23 CUBE.GCO");
  run(card, "M24");
  assert.deepEqual(card.advance(2), []);
  assert.deepEqual(run(card, "M27"), ["SD printing byte 200/600"]);
  run(card, "M25");
  card.advance(10);
  assert.deepEqual(
    run(card, "M27"),
    ["Not SD printing"],
    "Marlin reports a paused print as not printing",
  );
  run(card, "M24");
  assert.deepEqual(run(card, "M27"), ["SD printing byte 200/600"]);
  assert.deepEqual(card.advance(4), ["Done printing file"]);
  assert.equal(card.printing, false);
  assert.deepEqual(run(card, "M27"), ["Not SD printing"]);
});

Deno.test("M27 S<n> reports the SD status every n seconds until M27 S0", () => {
  const card = new SdCard(FILES, 100);
  run(card, "M23 CUBE.GCO");
  run(card, "M24");
  assert.deepEqual(run(card, "M27 S2"), []);
  assert.deepEqual(card.advance(1), []);
  assert.deepEqual(card.advance(1), ["SD printing byte 200/600"]);
  run(card, "M27 S0");
  assert.deepEqual(card.advance(2), []);
});

Deno.test("M22 releases the card: no listing and no file until M21", () => {
  const card = new SdCard(FILES);
  run(card, "M23 CUBE.GCO");
  run(card, "M24");
  assert.deepEqual(run(card, "M22"), ["echo:SD card released"]);
  assert.equal(card.printing, false);
  assert.deepEqual(run(card, "M20"), ["echo:No media"]);
  assert.deepEqual(run(card, "M23 CUBE.GCO"), ["echo:open failed, File: CUBE.GCO."]);
  run(card, "M21");
  assert.equal(run(card, "M20")?.length, 4);
});
