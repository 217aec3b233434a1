import assert from "node:assert/strict";
import { installFakeLms } from "./fake_lms_install.ts";

async function lms(bin: string, ...args: string[]) {
  const out = await new Deno.Command(bin, { args, stdout: "piped", stderr: "piped" }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("The fake lms prints camelCase ls --json entries like the SDK's model info", async () => {
  const fake = await installFakeLms();
  try {
    const res = await lms(fake.bin, "ls", "--json");
    assert.equal(res.code, 0);
    const entries = JSON.parse(res.stdout) as Record<string, unknown>[];
    const gemma = entries.find((e) => e.modelKey === "google/gemma-4-26b-a4b")!;
    for (
      const k of [
        "type",
        "modelKey",
        "format",
        "displayName",
        "path",
        "sizeBytes",
        "maxContextLength",
        "vision",
        "trainedForToolUse",
      ]
    ) {
      assert.ok(k in gemma, k);
    }
    assert.deepEqual(gemma.quantization, { name: "Q4_K_M", bits: 4 });
  } finally {
    await fake.remove();
  }
});

Deno.test("The fake lms keeps server state between runs and rejects unknown commands", async () => {
  const fake = await installFakeLms({ state: { server: { running: true, port: 4321 } } });
  try {
    assert.deepEqual(JSON.parse((await lms(fake.bin, "server", "status", "--json")).stdout), {
      running: true,
      port: 4321,
    });
    assert.equal((await lms(fake.bin, "server", "stop")).code, 0);
    assert.deepEqual(JSON.parse((await lms(fake.bin, "server", "status", "--json")).stdout), {
      running: false,
    });
    const bad = await lms(fake.bin, "frobnicate");
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /unknown command/);
    assert.equal(fake.read().calls.length, 4);
  } finally {
    await fake.remove();
  }
});
