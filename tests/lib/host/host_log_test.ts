/**
 * The host's log files: `host.log` one line per entry, and the stacks of unexpected errors in
 * `errors.log` (mode 0600) under the reference `host.log` names.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import * as v from "valibot";
import { errorsLog } from "../../../lib/host/mod.ts";
import type { PluginDescriptor } from "../../../lib/host/plugin.ts";
import { createLogger } from "../../../lib/log.ts";
import { startTestHost } from "./_helpers.ts";

/** A plugin whose route fails with a bug (a TypeError from deep inside). */
const failing: PluginDescriptor = {
  id: "failing",
  name: "Failing",
  version: "1",
  settingsVersion: 1,
  settingsSchema: v.strictObject({}),
  create: () => ({
    routes: [{
      base: "/api/plugin/failing",
      app: new Hono().get("/", () => {
        const config = JSON.parse("null") as { path: string };
        return new Response(config.path);
      }),
    }],
  }),
};

Deno.test("an unexpected error of a request leaves one line with a reference in host.log and its stack in errors.log", async () => {
  const t = await startTestHost({ plugins: [failing] });
  try {
    const res = await t.request("/api/plugin/failing");
    assert.equal(res.status, 500);
    assert.deepEqual(await res.json(), { error: "Internal server error", code: "internal" });
    const logDir = t.host.paths.logDir;
    const hostLog = await Deno.readTextFile(`${logDir}/host.log`);
    const failures = hostLog.split("\n").filter((l) => l.includes("/api/plugin/failing"));
    assert.equal(failures.length, 1, hostLog);
    const m = failures[0]!.match(
      / - ERROR - GET \/api\/plugin\/failing: TypeError \(details: errors\.log ref ([0-9a-f]{8})\)$/,
    );
    assert.ok(m, failures[0]!);
    assert.doesNotMatch(hostLog, /host_log_test\.ts|file:\/\/|\\n {4}at /, "no stack in host.log");

    const errors = await Deno.readTextFile(`${logDir}/errors.log`);
    const [head, ...stack] = errors.trimEnd().split("\n");
    assert.match(head!, new RegExp(` - ERROR - ref ${m[1]}: GET /api/plugin/failing$`));
    assert.match(stack[0]!, /^ {4}TypeError: Cannot read properties of null/);
    assert.ok(stack.some((l) => l.includes("host_log_test.ts")), "the stack names the file");
    assert.equal((await Deno.stat(`${logDir}/errors.log`)).mode! & 0o777, 0o600);
  } finally {
    await t.close();
  }
});

Deno.test("errorsLog() appends each entry with its indented detail lines, made safe", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = errorsLog(`${dir}/logs`);
    const log = createLogger("x", { sink: () => {}, details: file.details });
    log.failure("job", new Error("bad\u001b[31m"));
    log.failure("job", new Error("again"));
    file.close();
    const text = await Deno.readTextFile(`${dir}/logs/errors.log`);
    const heads = text.split("\n").filter((l) => / - x - ERROR - ref [0-9a-f]{8}: job$/.test(l));
    assert.equal(heads.length, 2, text);
    assert.match(text, /\n {4}Error: bad\\u001b\[31m\n/);
    assert.ok(!text.includes("\u001b"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
