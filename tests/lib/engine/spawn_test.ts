import assert from "node:assert/strict";
import { isAlive } from "../../../lib/engine/processes.ts";
import { defaultSpawn } from "../../../lib/engine/server.ts";
import { findOnPath } from "../../../lib/engine/which.ts";
import { waitFor } from "../../_helpers.ts";

const hasSetpriv = findOnPath("setpriv") !== null;

Deno.test("defaultSpawn() runs the command itself under the returned pid", async () => {
  const child = defaultSpawn("sleep", ["30"], {});
  try {
    await waitFor(() => Deno.readTextFileSync(`/proc/${child.pid}/cmdline`).startsWith("sleep"), {
      timeoutMs: 2_000,
      intervalMs: 25,
    });
    assert.equal(Deno.readTextFileSync(`/proc/${child.pid}/cmdline`).split("\0")[0], "sleep");
  } finally {
    child.kill("SIGKILL");
    await child.status;
    await child.stdout.cancel();
    await child.stderr.cancel();
  }
});

Deno.test({
  name: "defaultSpawn() makes the server die with the Deno process that started it",
  ignore: !hasSetpriv,
  async fn() {
    const module = new URL("../../../lib/engine/server.ts", import.meta.url).href;
    const code = `import { defaultSpawn } from "${module}";
      const c = defaultSpawn("sleep", ["60"], {});
      console.log(c.pid);
      await new Promise(() => setInterval(() => {}, 1000));`;
    const parent = new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = parent.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const { value } = await reader.read();
    const pid = Number(value?.trim());
    assert.ok(pid > 0 && isAlive(pid));
    parent.kill("SIGKILL");
    await parent.status;
    await reader.cancel();
    await waitFor(() => !isAlive(pid), {
      what: "the server to get the parent-death signal",
      timeoutMs: 3_000,
      intervalMs: 25,
    });
  },
});
