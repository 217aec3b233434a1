/**
 * The printer process of `deno task host` for real: the printer connection outlives the host's
 * restarts — a crash (`kill -9`) and a planned restart for a wider permission scope — with its
 * port, heater targets, temperature history and print untouched, the power output the branch
 * controller ties to printing never switched, and the printer process never restarted.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startHubSimulator } from "../doubles/powerhub_sim.ts";
import { startScopedHost } from "./_scoped_host.ts";

const BP = "/api/plugin/branchplus";

const pids = (stderr: string, what: string) =>
  [...stderr.matchAll(new RegExp(`INFO - ${what} started \\(pid (\\d+)\\)`, "g"))].map((m) =>
    Number(m[1])
  );

Deno.test({
  name:
    "the printer connection, its targets, history and print outlive a crash and a planned restart of the host, and no output switches",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_printer_process_" });
    const hub = await startHubSimulator({ port: 0 });
    await Deno.mkdir(join(dataDir, "host"), { recursive: true });
    // usb 1 is on while printing and off otherwise; the other channels are left alone.
    const ignore = "idle: ignore, prepare: ignore, paused: ignore, error: ignore";
    await Deno.writeTextFile(
      join(dataDir, "host", "config.yaml"),
      [
        "plugins:",
        "  branchplus:",
        "    _version: 1",
        "    host: 127.0.0.1",
        `    port: ${hub.port}`,
        "    min_switch_interval: 0",
        "    channels:",
        `      - { kind: usb, id: 1, rules: { printing: 'on', idle: 'off', prepare: ignore, paused: ignore, error: ignore } }`,
        `      - { kind: usb, id: 2, rules: { printing: ignore, ${ignore} } }`,
        "",
      ].join("\n"),
    );
    const h = await startScopedHost({ dataDir, args: ["--no-ui", "--printer-speed", "20"] });
    try {
      const printer = async () =>
        (await h.call("GET", "/api/printer?history=true&limit=10000")).body;
      type Job = { state: string; progress: { filepos: number; completion: number } };
      const job = async () => (await h.call("GET", "/api/job")).body as unknown as Job;
      await h.until("the hub connected", async () => (await h.call("GET", BP)).body.connected);
      assert.equal(
        (await h.call("POST", "/api/printer/tool", { command: "target", targets: { tool0: 210 } }))
          .status,
        204,
      );
      // A print of 4000 moves: 50 ms each on the printer's clock, 20 times faster: about 10 s.
      const form = new FormData();
      const moves = Array.from({ length: 4000 }, (_, i) => `G1 X${i % 200} Y${i % 100}`);
      form.append("file", new File([moves.join("\n")], "cube.gcode"));
      form.append("print", "true");
      const upload = await fetch(`${h.base}/api/files/local`, {
        method: "POST",
        headers: { "X-Api-Key": h.key },
        body: form,
      });
      assert.equal(upload.status, 201, await upload.text());
      await h.until("printing", async () => (await job()).state === "Printing");
      await h.until("usb 1 on", () => Promise.resolve(hub.channels.usb?.["1"] === 1));
      await h.until("tool0 heating", async () => {
        const t = (await printer()).temperature as Record<string, { actual: number }>;
        return t.tool0!.actual > 60;
      });
      const switches = hub.commands.length;
      const before = await printer();
      const firstSample = (before.temperature as { history: { time: number }[] }).history[0]!;
      const progressBefore = (await job()).progress.filepos;

      // A crash of the host.
      Deno.kill(pids(h.stderr(), "Plugin host").at(-1)!, "SIGKILL");
      await h.until(
        "the host back",
        () => Promise.resolve(/Plugin host is back/.test(h.stdout())),
        30_000,
      );
      // A planned restart: a hub address the scope does not allow yet.
      const saved = await h.call("POST", "/api/settings", {
        plugins: { branchplus: { host: "localhost" } },
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
      assert.equal(temperature.history[0]!.time, firstSample.time, "the history stayed");
      const running = await job();
      assert.equal(running.state, "Printing", "the print carried on");
      assert.ok(
        running.progress.filepos > progressBefore,
        "the print moved on while the host was away",
      );
      await h.until("the print done", async () => (await job()).state === "Operational", 60_000);
      assert.equal((await job()).progress.completion, 100);
      await h.until(
        "usb 1 off after the print",
        () => Promise.resolve(hub.channels.usb?.["1"] === 0),
      );
      const usb1 = hub.commands.slice(switches).filter((c) => c.kind === "usb" && c.id === 1);
      assert.deepEqual(usb1.map((c) => c.on), [0], "off when the print ended, never in between");
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
      await hub.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
