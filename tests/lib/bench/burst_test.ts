import assert from "node:assert/strict";
import { arrivedInBurst, burstNote, chooseDecode } from "../../../lib/bench/burst.ts";

Deno.test("a stream is a burst when its tokens came in at most two reads, with enough gaps to tell", () => {
  assert.equal(arrivedInBurst([0, 0, 0, 1]), true);
  assert.equal(arrivedInBurst([0, 0, 1, 1]), false, "three reads");
  // Three tokens a chunk, one chunk every 20 ms: most gaps are zero, but it streams.
  assert.equal(arrivedInBurst([0, 0, 20, 0, 0, 20, 0, 0, 20, 0, 0]), false);
  assert.equal(arrivedInBurst([0, 0, 0]), false, "three gaps say nothing");
  assert.equal(arrivedInBurst([]), false);
});

Deno.test("without a figure of the stream nothing is chosen; a server figure of 0 is no figure", () => {
  assert.deepEqual(chooseDecode(null, 50, []), {
    tokens_per_sec: null,
    client_tokens_per_sec: null,
    decode_source: null,
  });
  assert.equal(chooseDecode(70, 0, [1, 1, 1, 1]).decode_source, "client");
});

Deno.test("a result's note counts the runs that kept the server's figure and those left out", () => {
  assert.equal(burstNote([{ decode_source: "client" }, { decode_source: null }]), null);
  const note = burstNote([
    { decode_source: "server" },
    { decode_source: "left_out" },
    { decode_source: "client" },
  ])!;
  assert.match(note, /^1 of 3 run\(s\) streamed a decode speed more than 25% off/);
  assert.match(note, /1 of 3 run\(s\) streamed their tokens in one burst .* left out of the mean$/);
});
