import assert from "node:assert/strict";
import {
  defaultPermissionFor,
  hashPassword,
  hasPermission,
  parsePermissions,
  resolveHostPaths,
  scopedPermissionFlags,
  SessionStore,
  verifyPassword,
} from "../../../lib/host/mod.ts";

Deno.test("ADMIN implies every permission while others stand alone", () => {
  assert.ok(hasPermission(["ADMIN"], "SETTINGS"));
  assert.ok(hasPermission(["STATUS", "CONTROL"], "CONTROL"));
  assert.ok(!hasPermission(["STATUS"], "CONTROL"));
  assert.equal(defaultPermissionFor("GET"), "STATUS");
  assert.equal(defaultPermissionFor("DELETE"), "CONTROL");
});

Deno.test("parsePermissions() accepts any case and rejects unknown names", () => {
  assert.deepEqual(parsePermissions("status, Control,STATUS"), ["STATUS", "CONTROL"]);
  assert.throws(() => parsePermissions("root"), /Unknown permission 'root'/);
  assert.throws(() => parsePermissions(" , "), /empty/);
});

Deno.test("passwords are salted scrypt hashes that verify only the right password", async () => {
  const a = await hashPassword("pw");
  const b = await hashPassword("pw");
  assert.notEqual(a, b);
  assert.ok(await verifyPassword("pw", a));
  assert.ok(!(await verifyPassword("pw2", a)));
  assert.ok(!(await verifyPassword("pw", "plain")));
});

Deno.test("sessions expire after their idle lifetime", () => {
  let now = 0;
  const store = new SessionStore({ ttlMs: 1000, now: () => now });
  const s = store.create("u", "stamp");
  now = 900;
  assert.ok(store.get(s.id), "use extends the lifetime");
  now = 1800;
  assert.ok(store.get(s.id));
  now = 2900;
  assert.equal(store.get(s.id), null);
});

Deno.test("sessions end at their absolute lifetime however active they are", () => {
  let now = 0;
  const store = new SessionStore({ ttlMs: 1000, maxAgeMs: 2500, now: () => now });
  const s = store.create("u", "stamp");
  for (now = 500; now < 2500; now += 500) assert.ok(store.get(s.id), `alive at ${now}`);
  assert.equal(store.get(s.id), null, "ended at 2500 although used every 500 ms");
  assert.equal(store.size, 0);
});

Deno.test("resolveHostPaths() prefers overrides, then LOCALBENCH_*, then XDG defaults", () => {
  const xdg = resolveHostPaths({ HOME: "/h", XDG_DATA_HOME: "/x" });
  assert.equal(xdg.hostDir, "/x/localbench/host");
  assert.equal(xdg.configFile, "/x/localbench/host/config.yaml");
  assert.equal(xdg.configDir, "/h/.config/localbench");
  const env = resolveHostPaths({
    HOME: "/h",
    LOCALBENCH_DATA_DIR: "/d",
    LOCALBENCH_LOG_DIR: "/logs",
  });
  assert.equal(env.logDir, "/logs");
  assert.equal(resolveHostPaths({ HOME: "/h" }, { dataDir: "/o" }).logDir, "/o/host/logs");
});

Deno.test("scopedPermissionFlags() grants only the host folders, listen address and declared hosts", () => {
  const flags = scopedPermissionFlags({
    paths: resolveHostPaths({ HOME: "/h" }, { dataDir: "/d", logDir: "/var/log/lb" }),
    listen: { hostname: "127.0.0.1", port: 5000 },
    netHosts: ["hub.local:80", "broker:1883"],
    envVars: ["TEMP_ETA_ALGORITHM"],
  });
  assert.ok(flags.includes("--allow-read=/d/host,/var/log/lb,/proc/uptime"));
  assert.ok(flags.includes("--allow-write=/d/host,/var/log/lb"));
  assert.ok(flags.includes("--allow-net=127.0.0.1:5000,hub.local:80,broker:1883"));
  assert.ok(flags.some((f) => f.startsWith("--allow-env=") && f.includes("TEMP_ETA_ALGORITHM")));
  assert.ok(!flags.some((f) => /--allow-(run|ffi|all)|^-A$/.test(f)));
  assert.ok(flags.includes("--no-prompt"));
  const any = scopedPermissionFlags({
    paths: resolveHostPaths({ HOME: "/h" }),
    listen: { hostname: "127.0.0.1", port: 0 },
  });
  // Port 0: any free port to bind, no other port of that address to reach.
  assert.ok(any.includes("--allow-net=127.0.0.1:0"));
});
