/**
 * `deno task host` for real with a Marlin printer on a real tty (the simulator): connected and
 * saved through the API, a file uploaded and printing when the plugin host is killed (`kill
 * -9`). The printer process holds the line, so the print carries on to its end — every line
 * once, in order — and the host, restarted by its launcher, shows the finished job.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { startMarlinSim } from "../doubles/marlin_sim.ts";
import { startScopedHost } from "./_scoped_host.ts";

const pids = (stderr: string, what: string) =>
  [...stderr.matchAll(new RegExp(`INFO - ${what} started \\(pid (\\d+)\\)`, "g"))].map((m) =>
    Number(m[1])
  );

/** 200 lines: moves, and every tenth a dwell of 0.2 s so the print lasts about 4 s. */
const FILE = Array.from(
  { length: 200 },
  (_, i) => i % 10 === 9 ? "G4 P200" : `G1 X${i % 50} Y${i % 37} E${(i * 0.05).toFixed(2)}`,
);

Deno.test({
  name:
    "a print goes on to its end when the plugin host is killed mid-print, and the host comes back to show it finished",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const sim = await startMarlinSim({ speed: 1, maxSeconds: 180 });
    const dataDir = await Deno.makeTempDir({ prefix: "lb_printer_crash_" });
    const h = await startScopedHost({ dataDir, args: ["--no-ui"] });
    const printed = () => sim.controls.firmware.commands.filter((c) => /^G[14] /.test(c));
    try {
      const connect = await h.call("POST", "/api/connection", {
        command: "connect",
        port: sim.path,
        baudrate: 250000,
        save: true,
      });
      assert.equal(connect.status, 204, JSON.stringify(connect.body));
      const current = (await h.call("GET", "/api/connection")).body.current as Record<
        string,
        unknown
      >;
      assert.deepEqual([current.state, current.port], ["Operational", sim.path]);
      const config = parse(await Deno.readTextFile(`${dataDir}/host/config.yaml`));
      assert.deepEqual(
        [config.serial.port, config.serial.baudrate],
        [sim.path, 250000],
        "saved",
      );

      const form = new FormData();
      form.append("file", new File([`${FILE.join("\n")}\n`], "part.gcode"));
      form.append("print", "true");
      const upload = await fetch(`${h.base}/api/files/local`, {
        method: "POST",
        headers: { "X-Api-Key": h.key },
        body: form,
      });
      assert.equal(upload.status, 201, await upload.text());

      await h.until("50 lines printed", () => Promise.resolve(printed().length >= 50));
      const hostPid = pids(h.stderr(), "Plugin host").at(-1)!;
      Deno.kill(hostPid, "SIGKILL");
      const atKill = printed().length;
      assert.ok(atKill < FILE.length, `killed mid-print (${atKill} lines)`);

      await h.until(
        "the host back",
        () => Promise.resolve(/Plugin host is back/.test(h.stdout())),
        30_000,
      );
      assert.ok(printed().length > atKill, "the print went on while the host was down");
      await h.until(
        "the print's end",
        () => Promise.resolve(printed().length === FILE.length),
        30_000,
      );
      assert.deepEqual(printed(), FILE, "every line once, in order, across the crash");
      interface JobBody {
        state: string;
        job: { file: { name: string } };
        progress: { completion: number | null; lines: number | null };
      }
      const job = await h.until("the finished job", async () => {
        const body = (await h.call("GET", "/api/job")).body as unknown as JobBody;
        return body.state === "Operational" && body.progress.completion === 100 && body;
      });
      assert.equal(job.job.file.name, "part.gcode");
      assert.equal(job.progress.lines, FILE.length);
      const after = (await h.call("GET", "/api/connection")).body.current as Record<
        string,
        unknown
      >;
      assert.deepEqual([after.state, after.port, after.error], ["Operational", sim.path, null]);
      assert.equal(sim.controls.opens, 1, "the port was never reopened (no board reset)");
      assert.equal(pids(h.stderr(), "Printer process").length, 1, "one printer process");
      assert.equal(pids(h.stderr(), "Plugin host").length, 2, "the host started twice");
    } finally {
      await h.stop();
      await sim.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
