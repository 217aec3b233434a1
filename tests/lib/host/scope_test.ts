/**
 * The permission scope of `deno task host`: the launcher's own flags are the narrowest that let
 * it supervise, a CA file is granted alone by its real path, a port-0 listen reaches no other
 * port, and the host's scope watch asks its launcher for a restart only for what it may not use.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  createHost,
  hostStart,
  missingScope,
  resolveHostPaths,
  SCOPED_ENV_VAR,
  scopedPermissionFlags,
} from "../../../lib/host/mod.ts";
import {
  decodeMessage,
  encodeMessage,
  type HostMessage,
  isNetTarget,
} from "../../../lib/host/supervise/protocol.ts";
import { SupervisorLink } from "../../../lib/host/supervise/link.ts";
import { createLogger } from "../../../lib/log.ts";
import { plugins } from "../../../plugins/registry.ts";
import { hostTaskFlags } from "../../e2e/_scoped_host.ts";
import { FakeClock, json } from "./_helpers.ts";
import { hostWebApp } from "../../_web.ts";
import { parseHostArgs } from "../../../lib/host/host_args.ts";

Deno.test("the launcher of deno task host may read files and variables, learn the machine's names and run Deno, nothing else", async () => {
  assert.deepEqual(await hostTaskFlags(), [
    "--allow-read",
    "--allow-env",
    "--allow-sys=hostname,networkInterfaces",
    `--allow-run=${Deno.execPath()}`,
  ]);
});

Deno.test("the scoped host receives and may read only its own variables and those the plugins declare", async () => {
  const dir = await Deno.makeTempDir();
  const set = { LOCALBENCH_DATA_DIR: dir, TEMP_ETA_DEBUG: "1", LOCALBENCH_TEST_OTHER: "x" };
  const before = Object.keys(set).map((name) => [name, Deno.env.get(name)] as const);
  for (const [name, value] of Object.entries(set)) Deno.env.set(name, value);
  try {
    const serve = parseHostArgs(["--port", "0", "--no-ui"]);
    const start = await hostStart({ script: "host.ts", plugins, serve, readOnly: [] }, null, false);
    assert.equal(start.env.LOCALBENCH_DATA_DIR, dir);
    assert.equal(start.env.TEMP_ETA_DEBUG, "1", "declared by the Temperature ETA plugin");
    assert.equal(start.env.LOCALBENCH_TEST_OTHER, undefined, "declared by no one");
    const allowed = start.args.find((a) => a.startsWith("--allow-env="))!.split("=")[1]!.split(",");
    for (const list of [allowed, start.env[SCOPED_ENV_VAR]!.split(",")]) {
      assert.ok(list.includes("TEMP_ETA_DEBUG") && list.includes("TEMP_ETA_MIN_RATE"));
      assert.ok(!list.includes("LOCALBENCH_TEST_OTHER") && !list.includes("PATH"));
    }
    assert.ok(start.args.includes("--allow-sys=osUptime"), "declared by the uptime plugin");
  } finally {
    for (const [name, v] of before) v === undefined ? Deno.env.delete(name) : Deno.env.set(name, v);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a file the plugins name is granted alone, by the path given to the scope", () => {
  const flags = scopedPermissionFlags({
    paths: resolveHostPaths({ HOME: "/h" }, { dataDir: "/d" }),
    listen: { hostname: "127.0.0.1", port: 5000 },
    readFiles: ["/etc/ssl/certs/ca-certificates.crt"],
  });
  assert.ok(
    flags.includes(
      "--allow-read=/d/host,/d/host/logs,/etc/ssl/certs/ca-certificates.crt",
    ),
  );
  assert.ok(flags.includes("--allow-write=/d/host,/d/host/logs"));
});

Deno.test("a process with a port-0 listen scope binds a free port but reaches no other port", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const flags = scopedPermissionFlags({
      paths: resolveHostPaths({ HOME: dir }, { dataDir: dir }),
      listen: { hostname: "127.0.0.1", port: 0 },
    });
    const other = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const script = join(dir, "probe.js");
    await Deno.writeTextFile(
      script,
      `const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
       let connect = "ok";
       try { (await Deno.connect({ hostname: "127.0.0.1", port: ${
        (other.addr as Deno.NetAddr).port
      } })).close(); } catch (e) { connect = e.name; }
       l.close();
       console.log(JSON.stringify({ bound: l.addr.port > 0, connect }));`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", ...flags, script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    other.close();
    assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), {
      bound: true,
      connect: "NotCapable",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("in a process with full network access nothing is missing, so a save needs no restart", async () => {
  const dir = await Deno.makeTempDir();
  const host = createHost({
    plugins,
    dataDir: dir,
    clock: new FakeClock(),
    logger: createLogger("t", { sink: () => {} }),
  });
  const { adminKey } = await host.start();
  try {
    const res = await hostWebApp(host).request("/api/settings", {
      ...json("POST", { plugins: { branchplus: { host: "127.0.0.1", port: 9 } } }),
      headers: { "X-Api-Key": adminKey!, "Content-Type": "application/json" },
    });
    const body = await res.json();
    assert.equal(res.status, 200);
    assert.equal(body.reapplying, undefined);
    assert.deepEqual(missingScope(plugins, host.settings), { net: [], read: [] });
  } finally {
    await host.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the launcher channel carries only its own messages and answers probes by id", async () => {
  assert.equal(decodeMessage("Plugin host listening on http://x/"), null);
  assert.equal(decodeMessage('{"other": 1}'), null);
  const line = encodeMessage({ type: "restart", reason: "r" });
  assert.deepEqual(decodeMessage(line.trim()), { type: "restart", reason: "r" });
  assert.ok(
    isNetTarget("127.0.0.1:80") && isNetTarget("[::1]:8080") && isNetTarget("hub.local:81"),
  );
  assert.ok(!isNetTarget("a,b:1") && !isNetTarget("host") && !isNetTarget("h:1/x"));

  const sent: string[] = [];
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  let closed = false;
  const link = new SupervisorLink({
    write: (t) => sent.push(t),
    input: readable,
    onClose: () => closed = true,
  });
  const answer = link.probe({
    plugin: "branchplus",
    probe: "hub",
    args: { port: 1 },
    net: ["h:1"],
  });
  const request = decodeMessage<HostMessage>(sent[0]!.trim()) as { type: "probe"; id: number };
  assert.equal(request.type, "probe");
  const writer = writable.getWriter();
  await writer.write(
    new TextEncoder().encode(
      encodeMessage({ type: "probe_result", id: request.id, result: { ok: true } }),
    ),
  );
  assert.deepEqual(await answer, { ok: true });
  const lost = link.probe({ plugin: "branchplus", probe: "hub", args: {}, net: ["h:1"] });
  await writer.close();
  await assert.rejects(lost, /launcher is gone/);
  assert.equal(closed, true);
  assert.throws(() => link.restart("x"), /launcher/);
});
