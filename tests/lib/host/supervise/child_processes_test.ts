/** The scoped host's process as the launcher starts it: its variables and permissions. */
import assert from "node:assert/strict";
import { hostStart, SCOPED_ENV_VAR } from "../../../../lib/host/mod.ts";
import { plugins } from "../../../../plugins/registry.ts";
import { parseHostArgs } from "../../../../lib/host/host_args.ts";

Deno.test("the scoped host receives and may read only its own variables and those the plugins declare", async () => {
  const dir = await Deno.makeTempDir();
  const set = { LOCALBENCH_DATA_DIR: dir, TEMP_ETA_DEBUG: "1", LOCALBENCH_TEST_OTHER: "x" };
  const before = Object.keys(set).map((name) => [name, Deno.env.get(name)] as const);
  for (const [name, value] of Object.entries(set)) Deno.env.set(name, value);
  try {
    const serve = parseHostArgs(["--port", "0", "--no-ui"]);
    const start = await hostStart(
      { script: "host.ts", plugins, serve, readOnly: [], serviceStartedAt: 1 },
      null,
      false,
    );
    assert.equal(start.env.LOCALBENCH_DATA_DIR, dir);
    assert.equal(start.env.TEMP_ETA_DEBUG, "1", "declared by the Temperature ETA plugin");
    assert.equal(start.env.LOCALBENCH_TEST_OTHER, undefined, "declared by no one");
    const allowed = start.args.find((a) => a.startsWith("--allow-env="))!.split("=")[1]!.split(",");
    for (const list of [allowed, start.env[SCOPED_ENV_VAR]!.split(",")]) {
      assert.ok(list.includes("TEMP_ETA_DEBUG") && list.includes("TEMP_ETA_MIN_RATE"));
      assert.ok(!list.includes("LOCALBENCH_TEST_OTHER") && !list.includes("PATH"));
    }
    assert.ok(start.args.includes("--allow-sys=osUptime"), "declared by the uptime plugin");
    const read = start.args.find((a) => a.startsWith("--allow-read="))!.split("=")[1]!.split(",");
    assert.ok(
      read.some((p) => p.endsWith("/re2-wasm/")),
      `the log monitor's regex engine (declared readPaths): ${read.join(",")}`,
    );
    assert.ok(!read.some((p) => p.endsWith("/plugins") || p.endsWith("node_modules")));
  } finally {
    for (const [name, v] of before) v === undefined ? Deno.env.delete(name) : Deno.env.set(name, v);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every start of the scoped host, a resumed one too, carries the service's start time", async () => {
  const dir = await Deno.makeTempDir();
  const before = Deno.env.get("LOCALBENCH_DATA_DIR");
  Deno.env.set("LOCALBENCH_DATA_DIR", dir);
  try {
    const serve = parseHostArgs(["--port", "0", "--no-ui"]);
    const options = { script: "host.ts", plugins, serve, readOnly: [], serviceStartedAt: 1.76e12 };
    for (const resumed of [false, true]) {
      const start = await hostStart(options, 5000, resumed);
      const argv = start.args.slice(start.args.indexOf("host.ts") + 1);
      assert.equal(parseHostArgs(argv).serviceStartedAt, 1.76e12, `resumed: ${resumed}`);
    }
  } finally {
    before === undefined
      ? Deno.env.delete("LOCALBENCH_DATA_DIR")
      : Deno.env.set("LOCALBENCH_DATA_DIR", before);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseHostArgs() refuses a --service-started that is not ms since the epoch", () => {
  assert.equal(parseHostArgs([]).serviceStartedAt, null);
  for (const bad of ["soon", "-5", "1.5", "0"]) {
    assert.throws(() => parseHostArgs(["--service-started", bad]), { name: "UsageError" }, bad);
  }
});
