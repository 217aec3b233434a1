/**
 * The scoped host's end of the launcher's log lines, as a real `host.ts --scoped --supervised`
 * process: lines for `host.log` are appended there, a crash report's stack lines (`file:
 * "errors"`) to `errors.log` only.
 */
import assert from "node:assert/strict";
import { encodeMessage } from "../../lib/host/supervise/protocol.ts";
import { waitFor } from "../_helpers.ts";
import { ROOT } from "./_scoped_host.ts";

Deno.test({
  name:
    "the supervised host appends the launcher's lines to host.log and a crash's stack to errors.log",
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_launcher_log_" });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}/host.ts`, "--scoped", "--supervised", "--port", "0", "--no-ui"],
      cwd: ROOT,
      env: { LOCALBENCH_DATA_DIR: dataDir, NO_COLOR: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    let out = "";
    const pump = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of child.stdout) out += decoder.decode(chunk, { stream: true });
    })();
    const writer = child.stdin.getWriter();
    try {
      await waitFor(() => out.includes('"listening"'), {
        what: "the host listens",
        timeoutMs: 30_000,
      });
      const report = "2026-01-01 12:00:00,000 - localbench.launcher - ERROR - Plugin host crashed";
      const stack = [
        "2026-01-01 12:00:00,000 - localbench.launcher - ERROR - ref 0a1b2c3d: Plugin host crashed",
        "    at load (file:///srv/localbench/lib/secret_path.ts:3:9)",
      ];
      const encoder = new TextEncoder();
      await writer.write(encoder.encode(encodeMessage({ type: "log", lines: [report] })));
      await writer.write(
        encoder.encode(encodeMessage({ type: "log", lines: stack, file: "errors" })),
      );
      const logs = `${dataDir}/host/logs`;
      const read = (name: string) => Deno.readTextFile(`${logs}/${name}`).catch(() => "");
      await waitFor(async () => (await read("errors.log")).includes("secret_path"), "errors.log");
      await waitFor(async () => (await read("host.log")).includes(report), "host.log");
      assert.doesNotMatch(await read("host.log"), /secret_path|0a1b2c3d/);
      assert.equal(await read("errors.log"), stack.join("\n") + "\n");
      assert.equal((await Deno.stat(`${logs}/errors.log`)).mode! & 0o777, 0o600);
    } finally {
      // The launcher gone (its channel closed): the host stops.
      await writer.close().catch(() => {});
      const status = await child.status;
      await pump;
      await Deno.remove(dataDir, { recursive: true });
      assert.equal(status.code, 0);
    }
  },
});
