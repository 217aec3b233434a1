/** The plugins' failsafes while the host is down: read from config.yaml, run in a narrow process. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pluginFailsafes, runFailsafe } from "../../../../lib/host/supervise/failsafe.ts";
import { UsageError } from "../../../../lib/error.ts";
import { plugins } from "../../../../plugins/registry.ts";
import { startHubSimulator } from "../../../doubles/powerhub_sim.ts";
import { REPO_ROOT } from "../../../_helpers.ts";

/** Runs `fn` with LOCALBENCH_DATA_DIR set to a folder whose config.yaml is `yaml`. */
async function withStored(yaml: string, fn: () => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const before = Deno.env.get("LOCALBENCH_DATA_DIR");
  try {
    await Deno.mkdir(join(dir, "host"));
    await Deno.writeTextFile(join(dir, "host", "config.yaml"), yaml);
    Deno.env.set("LOCALBENCH_DATA_DIR", dir);
    await fn();
  } finally {
    before === undefined
      ? Deno.env.delete("LOCALBENCH_DATA_DIR")
      : Deno.env.set("LOCALBENCH_DATA_DIR", before);
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name:
    "the stored settings' failsafe runs in a process that may reach the hub only, and switches its outputs",
  sanitizeResources: false,
  async fn() {
    const sim = await startHubSimulator();
    sim.setChannel("usb", 1, true);
    try {
      const yaml = [
        "plugins:",
        "  branchplus:",
        "    _version: 1",
        "    host: 127.0.0.1",
        `    port: ${sim.port}`,
        "    host_down_grace: 7",
        "",
      ].join("\n");
      await withStored(yaml, async () => {
        const failsafes = await pluginFailsafes(join(REPO_ROOT, "host.ts"), plugins);
        assert.deepEqual(
          failsafes.map((f) => [f.name, f.delayMs]),
          [["Branch power controller", 7000]],
        );
        const outcome = await failsafes[0]!.apply();
        assert.equal(outcome.ok, true, outcome.message);
        assert.match(outcome.message, /^hub at ws:\/\/127\.0\.0\.1:\d+\/ws: switched off: usb 1, /);
        assert.equal(sim.channels.usb?.["1"], 0);
      });
    } finally {
      await sim.close();
    }
  },
});

Deno.test("no failsafe is due without a hub, and a process for an unknown one is refused", async () => {
  await withStored("plugins: {}\n", async () => {
    assert.deepEqual(await pluginFailsafes("host.ts", plugins), []);
  });
  await assert.rejects(
    runFailsafe(plugins, ["logmonitor"], ReadableStream.from([new TextEncoder().encode("{}")])),
    UsageError,
  );
});
