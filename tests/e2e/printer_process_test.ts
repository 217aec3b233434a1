/**
 * The printer process of `deno task host` for real: the printer connection outlives the host's
 * restarts — a crash (`kill -9`) and a planned restart for a wider permission scope — with its
 * port, heater targets and temperature history untouched, and the printer process never
 * restarted.
 */
import assert from "node:assert/strict";
import { startScopedHost } from "./_scoped_host.ts";

const pids = (stderr: string, what: string) =>
  [...stderr.matchAll(new RegExp(`INFO - ${what} started \\(pid (\\d+)\\)`, "g"))].map((m) =>
    Number(m[1])
  );

Deno.test({
  name:
    "the printer connection, its targets and its history outlive a crash and a planned restart of the host",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_printer_process_" });
    const h = await startScopedHost({ dataDir, args: ["--no-ui", "--printer-speed", "20"] });
    try {
      const printer = async () =>
        (await h.call("GET", "/api/printer?history=true&limit=10000")).body;
      const target = await h.call("POST", "/api/printer/tool", {
        command: "target",
        targets: { tool0: 210 },
      });
      assert.equal(target.status, 204);
      await h.until("tool0 heating", async () => {
        const t = (await printer()).temperature as Record<string, { actual: number }>;
        return t.tool0!.actual > 60;
      });
      const before = await printer();
      const firstSample = (before.temperature as { history: { time: number }[] }).history[0]!;

      // A crash of the host.
      const hostPid = pids(h.stderr(), "Plugin host").at(-1)!;
      Deno.kill(hostPid, "SIGKILL");
      await h.until(
        "the host back",
        () => Promise.resolve(/Plugin host is back/.test(h.stdout())),
        30_000,
      );
      // A planned restart: a hub address the scope does not allow yet.
      const saved = await h.call("POST", "/api/settings", {
        plugins: { branchplus: { host: "127.0.0.1", port: 1 } },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      await h.until(
        "the host re-applied",
        () => Promise.resolve(/re-applied its settings/.test(h.stdout())),
        30_000,
      );

      const after = await h.until("the host answers", printer);
      const temperature = after.temperature as
        & Record<string, { actual: number; target: number }>
        & {
          history: { time: number }[];
        };
      assert.equal(temperature.tool0!.target, 210, "the target stayed");
      assert.ok(temperature.tool0!.actual > 60, "the heater kept heating");
      assert.equal(temperature.history[0]!.time, firstSample.time, "the history stayed");
      const connection = (await h.call("GET", "/api/connection")).body.current as Record<
        string,
        unknown
      >;
      assert.deepEqual([connection.state, connection.port], ["Operational", "VIRTUAL"]);
      assert.equal(
        pids(h.stderr(), "Printer process").length,
        1,
        "the printer process never restarted",
      );
      assert.equal(pids(h.stderr(), "Plugin host").length, 3, "the host started three times");
    } finally {
      await h.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
