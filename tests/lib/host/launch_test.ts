/**
 * The permission scope of the scoped host (`launch.ts`): a CA file is granted alone by its real
 * path, a port-0 listen reaches no other port, and the launcher derives the scope from the same
 * migrated, validated settings the host starts with.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import {
  createHost,
  pluginScope,
  resolveHostPaths,
  resolveReadFiles,
  scopedPermissionFlags,
} from "../../../lib/host/mod.ts";
import { plugin as branchplus } from "../../../plugins/branchplus/mod.ts";
import { createTempEtaPlugin } from "../../../plugins/temp_eta/mod.ts";
import { DEFAULTS } from "../../../plugins/temp_eta/schema.ts";
import { capture, withConfig } from "./_helpers.ts";

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

Deno.test("scopedPermissionFlags() grants only the host folders, listen address and what the plugins declare", () => {
  const flags = scopedPermissionFlags({
    paths: resolveHostPaths({ HOME: "/h" }, { dataDir: "/d", logDir: "/var/log/lb" }),
    listen: { hostname: "127.0.0.1", port: 5000 },
    netHosts: ["hub.local:80", "broker:1883"],
    envVars: ["TEMP_ETA_ALGORITHM"],
    systemInfo: ["osUptime"],
  });
  assert.ok(flags.includes("--allow-read=/d/host,/var/log/lb"));
  assert.ok(flags.includes("--allow-write=/d/host,/var/log/lb"));
  assert.ok(flags.includes("--allow-net=127.0.0.1:5000,hub.local:80,broker:1883"));
  assert.ok(flags.some((f) => f.startsWith("--allow-env=") && f.includes("TEMP_ETA_ALGORITHM")));
  assert.ok(!flags.some((f) => /--allow-(run|ffi|all)|^-A$/.test(f)));
  assert.ok(flags.includes("--allow-sys=osUptime"));
  assert.ok(flags.includes("--no-prompt"));
  const any = scopedPermissionFlags({
    paths: resolveHostPaths({ HOME: "/h" }),
    listen: { hostname: "127.0.0.1", port: 0 },
  });
  assert.ok(!any.some((f) => f.startsWith("--allow-sys")), "no system information undeclared");
  // Port 0: any free port to bind, no other port of that address to reach.
  assert.ok(any.includes("--allow-net=127.0.0.1:0"));
});

Deno.test("a version 1 Temperature ETA section is migrated before the launcher derives the network scope", async () => {
  const yaml = [
    "plugins:",
    "  temp_eta:",
    "    mqtt_enabled: true",
    "    mqtt_broker_host: broker.example",
    "    mqtt_broker_port: 1884",
    "",
  ].join("\n");
  await withConfig(yaml, async (dir) => {
    const configFile = join(dir, "host", "config.yaml");
    const before = await Deno.readTextFile(configFile);
    const scope = await pluginScope(configFile, [createTempEtaPlugin(), branchplus]);
    assert.deepEqual(scope.netHosts, ["broker.example:1884"]);
    assert.equal(await Deno.readTextFile(configFile), before, "the launcher does not write");

    const host = createHost({
      plugins: [createTempEtaPlugin()],
      dataDir: dir,
      logger: capture().logger,
    });
    await host.start();
    await host.stop();
    const doc = parse(await Deno.readTextFile(configFile));
    assert.equal(doc.plugins.temp_eta._version, 2);
    assert.equal(doc.plugins.temp_eta.mqtt_broker, "broker.example");
    assert.equal(doc.plugins.temp_eta.mqtt_port, 1884);
    assert.equal(doc.plugins.temp_eta.mqtt_broker_host, undefined);
  });
});

Deno.test("a CA file named in the settings is granted by its real path, after links are resolved", async () => {
  await withConfig(null, async (dir) => {
    const ca = join(dir, "real-ca.pem");
    await Deno.writeTextFile(ca, "-----BEGIN CERTIFICATE-----\n");
    await Deno.symlink(ca, join(dir, "link-ca.pem"));
    const plugin = createTempEtaPlugin();
    const files = plugin.readFiles!({
      ...DEFAULTS,
      mqtt_enabled: true,
      mqtt_tls_enabled: true,
      mqtt_ca_cert: join(dir, "link-ca.pem"),
    });
    assert.deepEqual(files, [join(dir, "link-ca.pem")]);
    const resolved = await resolveReadFiles([...files, join(dir, "missing.pem"), dir]);
    assert.deepEqual(resolved.granted, [await Deno.realPath(ca)]);
    assert.deepEqual(resolved.refused.map((r) => r.reason), ["not found", "not a regular file"]);
  });
});
