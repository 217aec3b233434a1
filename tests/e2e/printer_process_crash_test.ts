/**
 * A crash of the printer process itself under `deno task host`: the launcher logs it at ERROR
 * with its last lines and starts it again; the host's printer reconnects through the socket and
 * the printer connects again as config.yaml says (the virtual printer here), while the host keeps
 * answering.
 */
import assert from "node:assert/strict";
import { startScopedHost } from "./_scoped_host.ts";

const pids = (stderr: string, what: string) =>
  [...stderr.matchAll(new RegExp(`INFO - ${what} started \\(pid (\\d+)\\)`, "g"))].map((m) =>
    Number(m[1])
  );

Deno.test({
  name: "a killed printer process is logged and started again, and the host's printer comes back",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_printer_crash_" });
    const h = await startScopedHost({ dataDir });
    try {
      const state = async () =>
        ((await h.call("GET", "/api/connection")).body.current as { state: string }).state;
      await h.until("operational", async () => (await state()) === "Operational");
      const [printerPid] = pids(h.stderr(), "Printer process");
      Deno.kill(printerPid!, "SIGKILL");
      await h.until("the crash report", () =>
        Promise.resolve(
          /ERROR - Printer process crashed after [\d.]+ s: killed by SIGKILL \(exit code 137\); starting it again in 1 s/
            .test(h.stderr()),
        ));
      await h.until(
        "a new printer process",
        () => Promise.resolve(pids(h.stderr(), "Printer process").length === 2),
      );
      await h.until("operational again", async () => (await state()) === "Operational", 20_000);
      assert.equal(pids(h.stderr(), "Plugin host").length, 1, "the host was never restarted");
      const { code } = await h.stop();
      assert.equal(code, 0);
    } finally {
      await h.stop().catch(() => {});
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
