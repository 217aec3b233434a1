import assert from "node:assert/strict";
import { Hono } from "hono";
import type { PluginDescriptor } from "../../../lib/host/plugin.ts";
import { json, startTestHost } from "./_helpers.ts";
import * as v from "valibot";

const probe: PluginDescriptor = {
  id: "probe",
  name: "Probe",
  version: "1",
  settingsVersion: 1,
  settingsSchema: v.strictObject({ n: v.optional(v.number(), 1) }),
  create: () => ({
    routes: [{
      base: "/api/plugin/probe",
      app: new Hono().get("/", (c) => c.json({ ok: true })).post(
        "/",
        (c) => c.json({ done: true }),
      ),
    }, {
      base: "/plugin/probe",
      app: new Hono().post("/settingsy", (c) => c.json({ ok: true })),
      permissions: { POST: "SETTINGS" },
    }],
  }),
};

/** Every route of the host core and the probe plugin. */
const ROUTES: [string, string][] = [
  ["GET", "/api/settings"],
  ["POST", "/api/settings"],
  ["DELETE", "/api/settings/plugins/probe"],
  ["GET", "/api/printer"],
  ["POST", "/api/printer/tool"],
  ["POST", "/api/printer/bed"],
  ["POST", "/api/printer/chamber"],
  ["GET", "/api/job"],
  ["POST", "/api/job"],
  ["GET", "/api/plugins"],
  ["GET", "/api/currentuser"],
  ["POST", "/api/logout"],
  ["GET", "/api/plugin/probe"],
  ["POST", "/api/plugin/probe"],
  ["POST", "/plugin/probe/settingsy"],
  ["GET", "/plugin/probe/unknown/route"],
];

Deno.test("every host route answers 401 without a key or session", async () => {
  const t = await startTestHost({ plugins: [probe] });
  try {
    for (const [method, path] of ROUTES) {
      const res = await t.request(path, { method, key: null });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.ok((await res.json()).error);
    }
    // A path that is not the host's is the web app's: 404, as without the host.
    const other = await t.request("/unknown/route", { key: null });
    assert.equal(other.status, 404);
    assert.deepEqual(await other.json(), { error: "Not found", code: "not_found" });
  } finally {
    await t.close();
  }
});

Deno.test("a wrong API key is refused with 401", async () => {
  const t = await startTestHost({ plugins: [probe] });
  try {
    const res = await t.request("/api/plugin/probe", { key: "not-a-key" });
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { error: "Invalid API key", code: "unauthorized" });
  } finally {
    await t.close();
  }
});

Deno.test("a STATUS key reads but cannot change settings, control or plugin commands", async () => {
  const t = await startTestHost({ plugins: [probe] });
  try {
    const key = t.keys.STATUS;
    assert.equal((await t.request("/api/settings", { key })).status, 200);
    assert.equal((await t.request("/api/plugin/probe", { key })).status, 200);
    const denied: [string, string, unknown][] = [
      ["POST", "/api/settings", { plugins: { probe: { n: 2 } } }],
      ["DELETE", "/api/settings/plugins/probe", undefined],
      ["POST", "/api/plugin/probe", {}],
      ["POST", "/api/job", { command: "start" }],
      ["POST", "/api/printer/bed", { command: "target", target: 50 }],
    ];
    for (const [method, path, body] of denied) {
      const res = await t.request(path, { ...json(method, body ?? {}), key });
      assert.equal(res.status, 403, `${method} ${path}`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("plugin routes use the per-method permission the plugin declares", async () => {
  const t = await startTestHost({ plugins: [probe] });
  try {
    const post = (key: string) => t.request("/plugin/probe/settingsy", { method: "POST", key });
    assert.equal((await post(t.keys.CONTROL)).status, 403);
    assert.equal((await post(t.keys.SETTINGS)).status, 200);
    assert.equal((await post(t.keys.ADMIN)).status, 200);
    assert.equal(
      (await t.request("/api/plugin/probe", { method: "POST", key: t.keys.CONTROL })).status,
      200,
    );
  } finally {
    await t.close();
  }
});

/** What the host's own page sends (the test app answers as http://localhost). */
const SAME_ORIGIN = { Origin: "http://localhost" };

async function login(t: Awaited<ReturnType<typeof startTestHost>>, user: string, pass: string) {
  const res = await t.request("/api/login", {
    ...json("POST", { user, pass }, SAME_ORIGIN),
    key: null,
  });
  return { res, cookie: res.headers.get("set-cookie")?.split(";")[0] ?? "" };
}

Deno.test("login sets an HttpOnly session cookie and returns a CSRF token", async () => {
  const t = await startTestHost({ plugins: [probe] });
  try {
    const { res, cookie } = await login(t, "status", "STATUS-pass");
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(body.permissions, ["STATUS"]);
    assert.ok(typeof body.csrf_token === "string" && body.csrf_token.length > 20);
    assert.match(res.headers.get("set-cookie") ?? "", /HttpOnly/i);
    assert.match(res.headers.get("set-cookie") ?? "", /SameSite=Strict/i);
    const get = await t.request("/api/plugin/probe", { key: null, headers: { Cookie: cookie } });
    assert.equal(get.status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("a session request that changes state needs the X-CSRF-Token header", async () => {
  const t = await startTestHost({ plugins: [probe] });
  try {
    const { res, cookie } = await login(t, "control", "CONTROL-pass");
    const { csrf_token } = await res.json();
    const without = await t.request("/api/plugin/probe", {
      method: "POST",
      key: null,
      headers: { Cookie: cookie, ...SAME_ORIGIN },
    });
    assert.equal(without.status, 403);
    const wrong = await t.request("/api/plugin/probe", {
      method: "POST",
      key: null,
      headers: { Cookie: cookie, "X-CSRF-Token": "nope", ...SAME_ORIGIN },
    });
    assert.equal(wrong.status, 403);
    const right = await t.request("/api/plugin/probe", {
      method: "POST",
      key: null,
      headers: { Cookie: cookie, "X-CSRF-Token": csrf_token, ...SAME_ORIGIN },
    });
    assert.equal(right.status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("a wrong password is refused and logout ends the session", async () => {
  const t = await startTestHost({ plugins: [probe] });
  try {
    assert.equal((await login(t, "control", "wrong")).res.status, 401);
    assert.equal((await login(t, "nobody", "x")).res.status, 401);
    assert.equal(
      (await login(t, "admin", "")).res.status,
      401,
      "the generated admin has no password",
    );
    const { res, cookie } = await login(t, "status", "STATUS-pass");
    const { csrf_token } = await res.json();
    const out = await t.request("/api/logout", {
      method: "POST",
      key: null,
      headers: { Cookie: cookie, "X-CSRF-Token": csrf_token, ...SAME_ORIGIN },
    });
    assert.equal(out.status, 204);
    const after = await t.request("/api/plugin/probe", { key: null, headers: { Cookie: cookie } });
    assert.equal(after.status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("login rejects a body without user and pass strings", async () => {
  const t = await startTestHost();
  try {
    const res = await t.request("/api/login", {
      ...json("POST", { user: "a" }, SAME_ORIGIN),
      key: null,
    });
    assert.equal(res.status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("secrets never appear in config.yaml, the host log or responses", async () => {
  const t = await startTestHost({ plugins: [probe] });
  try {
    await login(t, "control", "CONTROL-pass");
    const me = await (await t.request("/api/currentuser")).text();
    const config = await Deno.readTextFile(t.host.paths.configFile);
    const log = await Deno.readTextFile(`${t.host.paths.logDir}/host.log`);
    for (const secret of [...Object.values(t.keys), "CONTROL-pass"]) {
      assert.ok(!config.includes(secret), "config.yaml holds a secret");
      assert.ok(!log.includes(secret), "host.log holds a secret");
      assert.ok(!me.includes(secret), "response holds a secret");
    }
    assert.match(config, /scrypt\$/);
  } finally {
    await t.close();
  }
});

Deno.test("the admin key is generated only at the first start", async () => {
  const t = await startTestHost();
  try {
    assert.equal((await t.host.start()).adminKey, null);
  } finally {
    await t.close();
  }
});
