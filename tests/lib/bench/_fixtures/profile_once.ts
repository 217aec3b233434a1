/**
 * Run by profiler_test.ts under a program's own permission flags: the hardware profiler of this
 * machine takes two samples 300 ms apart and prints the second one with `unreadable()` as JSON.
 *
 * @module
 */
import { createProfiler } from "../../../../lib/bench/profiler.ts";

const profiler = createProfiler();
await profiler.sample();
await new Promise((r) => setTimeout(r, 300));
const sample = await profiler.sample();
await Deno.stdout.write(
  new TextEncoder().encode(JSON.stringify({ sample, unreadable: profiler.unreadable() })),
);
