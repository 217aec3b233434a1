import assert from "node:assert/strict";
import { discoverTargets, modelsFromLms } from "../../../lib/bench/discovery.ts";
import { targetOf } from "../../../lib/bench/target.ts";
import { createBackend } from "../../../lib/modelserver/factory.ts";
import { defaultFakeLmsState } from "../../doubles/fake_lms.ts";
import { startLmStudioDouble } from "../../doubles/lmstudio_server.ts";
import type { LmsModelEntry } from "../../../lib/modelserver/lms_cli.ts";

const VARIANTS = [
  "deepseek/deepseek-r1-0528-qwen3-8b@q4_k_m",
  "google/gemma-4-26b-a4b@q4_k_m",
  "mistralai/ministral-3-3b@q4_k_m",
  "qwen/qwen3-4b@q4_k_m",
  "qwen/qwen3-4b@q8_0",
];

Deno.test("the SDK, REST and lms lists of one server name every variant alike", async () => {
  const d = await startLmStudioDouble({ port: 0 });
  try {
    for (const kind of ["sdk", "rest"] as const) {
      const backend = createBackend({ backend: kind, host: "127.0.0.1", port: d.port });
      try {
        const keys = (await discoverTargets(backend, null)).map((t) => t.key).sort();
        assert.deepEqual(keys, VARIANTS, kind);
      } finally {
        await backend.close();
      }
    }
    const lms = modelsFromLms(defaultFakeLmsState().models as unknown as LmsModelEntry[])
      .map((m) => targetOf(m, "sdk")?.key).filter(Boolean).sort();
    assert.deepEqual(lms, VARIANTS, "lms ls --json");
  } finally {
    await d.close();
  }
});
