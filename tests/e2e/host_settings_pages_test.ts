/**
 * The plugin host's pages as a browser receives them (without a browser): each plugin's settings
 * screen with its settings, secrets as set / not set and the user's right to change them; the
 * top bar's Settings link, user and logout; the favicon and the failure pages of the host served
 * alone.
 */
import assert from "node:assert/strict";
import { plugin as branchplus } from "../../plugins/branchplus/mod.ts";
import { createUptimePlugin } from "../../plugins/host_uptime/mod.ts";
import { createLogMonitorPlugin } from "../../plugins/logmonitor/mod.ts";
import { createTempEtaPlugin } from "../../plugins/temp_eta/mod.ts";
import { json, startTestHost, type TestHost } from "../lib/host/_helpers.ts";

async function allPlugins(): Promise<TestHost> {
  return await startTestHost({
    plugins: [createLogMonitorPlugin(), createUptimePlugin(), branchplus, createTempEtaPlugin()],
    pages: true,
  });
}

/** Signs `user` in; returns the cookie and CSRF token. */
async function signIn(t: TestHost, user: string, pass: string) {
  const login = await t.request("/api/login", {
    ...json("POST", { user, pass }, { Origin: "http://localhost" }),
    key: null,
  });
  assert.equal(login.status, 200);
  const { csrf_token } = await login.json();
  return { cookie: login.headers.get("set-cookie")!.split(";")[0]!, csrf: csrf_token as string };
}

/** The props of the island `name` in a page. */
function islandProps(html: string, name: string): Record<string, unknown> {
  const m = new RegExp(`data-island="${name}" data-props="([^"]*)"`).exec(html);
  assert.ok(m, `island ${name} in the page`);
  const text = m[1]!.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">").replaceAll("&#39;", "'");
  return JSON.parse(text);
}

Deno.test("each hosted plugin has a settings screen with its settings, never a secret's value", async () => {
  const t = await allPlugins();
  try {
    await t.host.settings.updateMany({
      temp_eta: { algorithm: "exponential", mqtt_username: "eta", mqtt_password: "hunter2" },
    });
    await t.host.users.addUser("keeper", "keeper-pass", ["STATUS", "SETTINGS"]);
    const { cookie, csrf } = await signIn(t, "keeper", "keeper-pass");
    const get = (path: string) => t.request(path, { key: null, headers: { Cookie: cookie } });
    const index = await get("/plugins/settings");
    assert.equal(index.status, 302);
    assert.equal(index.headers.get("location"), "/plugins/logmonitor/settings");
    const screens: [string, string][] = [
      ["logmonitor", "LogMonitorSettings"],
      ["host_uptime", "UptimeSettings"],
      ["branchplus", "BranchSettings"],
      ["temp_eta", "TempEtaSettings"],
    ];
    for (const [id, island] of screens) {
      const res = await get(`/plugins/${id}/settings`);
      assert.equal(res.status, 200, id);
      const html = await res.text();
      const props = islandProps(html, `${id}/${island}`);
      assert.equal(props.canEdit, true);
      assert.equal(props.csrfToken, csrf);
      assert.deepEqual(props.values, t.host.settings.publicView()[id]);
      // The top bar: Settings marked current, one tab per plugin, the current one marked.
      assert.match(html, /aria-current="page"[^>]*>Settings</);
      assert.match(html, new RegExp(`href="/plugins/${id}/settings" aria-current="page"`));
      for (const tab of ["Log Monitor", "Uptime", "Branch power controller", "Temperature ETA"]) {
        assert.ok(html.includes(`>${tab}</a>`), `${id}: the ${tab} tab`);
      }
      assert.ok(!html.includes("hunter2"), `${id}: the password never reaches the page`);
    }
    const etaHtml = await (await get("/plugins/temp_eta/settings")).text();
    const eta = islandProps(etaHtml, "temp_eta/TempEtaSettings");
    assert.deepEqual(eta.secrets, { mqtt_password: true });
    assert.equal((eta.values as Record<string, unknown>).algorithm, "exponential");
    assert.deepEqual(eta.sounds, ["default", "cooling_done.wav", "heating_done.wav"]);
    // The ranges in the hints are the schema's, handed over by the server.
    assert.equal((eta.ranges as Record<string, string>).update_interval, "From 0.5 to 5.0.");
    assert.match(etaHtml, /From 0\.5 to 5\.0\./);
    assert.equal(
      (eta.soundUrls as { cooling: Record<string, string> }).cooling.default,
      "/plugin/temp_eta/static/sounds/cooling_done.wav",
    );
    // STATUS alone may look but not change; without a session the page asks to sign in.
    const viewer = await signIn(t, "status", "STATUS-pass");
    const look = await t.request("/plugins/branchplus/settings", {
      key: null,
      headers: { Cookie: viewer.cookie },
    });
    assert.equal(islandProps(await look.text(), "branchplus/BranchSettings").canEdit, false);
    const anonymous = await t.request("/plugins/temp_eta/settings", { key: null });
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.headers.get("location")!, /^\/plugins\/login\?next=/);
  } finally {
    await t.close();
  }
});

Deno.test("the top bar shows the signed-in user with a logout button, and logging out ends the session", async () => {
  const t = await allPlugins();
  try {
    const { cookie, csrf } = await signIn(t, "status", "STATUS-pass");
    const page = await t.request("/plugins/branchplus/", {
      key: null,
      headers: { Cookie: cookie },
    });
    const html = await page.text();
    assert.deepEqual(islandProps(html, "UserMenu"), { user: "status", csrfToken: csrf });
    assert.match(html, /href="\/plugins\/branchplus\/settings"/, "the page links its settings");
    // A logout without the CSRF token is refused; with it the session is gone.
    const forged = await t.request("/api/logout", {
      method: "POST",
      key: null,
      headers: { Cookie: cookie, Origin: "http://localhost" },
    });
    assert.equal(forged.status, 403);
    const out = await t.request("/api/logout", {
      method: "POST",
      key: null,
      headers: { Cookie: cookie, "X-CSRF-Token": csrf, Origin: "http://localhost" },
    });
    assert.equal(out.status, 204);
    const after = await t.request("/plugins/branchplus/", {
      key: null,
      headers: { Cookie: cookie },
    });
    assert.equal(after.status, 302, "signed out: back to the login page");
    // The login page offers no "Log in" link to itself, and no user.
    const login = await (await t.request("/plugins/login", { key: null })).text();
    assert.ok(!login.includes('data-testid="login-link"'));
    assert.ok(!login.includes('data-island="UserMenu"'));
  } finally {
    await t.close();
  }
});

Deno.test("the host served alone answers /favicon.ico and gives browsers HTML failure pages", async () => {
  const t = await allPlugins();
  try {
    const icon = await t.request("/favicon.ico", { key: null });
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get("content-type"), "image/x-icon");
    const bytes = new Uint8Array(await icon.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], "an ICO file");
    const html = { Accept: "text/html,application/xhtml+xml" };
    const nothing = await t.request("/no/such/page", { key: null, headers: html });
    assert.equal(nothing.status, 404);
    assert.match(nothing.headers.get("content-type")!, /text\/html/);
    const text = await nothing.text();
    assert.match(text, /Page not found/);
    assert.match(text, /href="\/styles.css"/, "in the app shell");
    assert.match(text, /data-testid="login-link"[^>]*>Log in/, "a way in");
    const { cookie } = await signIn(t, "status", "STATUS-pass");
    const missing = await t.request("/plugins/nope/", {
      key: null,
      headers: { ...html, Cookie: cookie },
    });
    assert.equal(missing.status, 404);
    const page = await missing.text();
    assert.match(page, /Page not found/);
    assert.match(page, /data-island="UserMenu"/, "in the layout, signed in");
    const api = await t.request("/api/nope", { key: null, headers: html });
    assert.equal(api.status, 404);
    assert.deepEqual(await api.json(), { error: "Not found", code: "not_found" }, "JSON for /api");
    const client = await t.request("/no/such/page", { key: null });
    assert.deepEqual(await client.json(), { error: "Not found", code: "not_found" });
  } finally {
    await t.close();
  }
});

Deno.test("a host page that fails gives a browser the HTML 500 page in the layout, the plugin's API JSON, and no internals", async () => {
  const t = await allPlugins();
  try {
    // The log folder swapped for a file: listing it fails in a way nobody planned for.
    const logDir = t.host.paths.logDir;
    await Deno.remove(logDir, { recursive: true });
    await Deno.writeTextFile(logDir, "not a folder");
    const { cookie } = await signIn(t, "status", "STATUS-pass");
    const html = { Accept: "text/html,application/xhtml+xml", Cookie: cookie };
    const failed = await t.request("/plugins/logmonitor/", { key: null, headers: html });
    assert.equal(failed.status, 500);
    assert.match(failed.headers.get("content-type")!, /text\/html/);
    const page = await failed.text();
    assert.match(page, /Error 500/);
    assert.match(page, /Internal server error/);
    assert.match(page, /href="\/styles.css"/, "in the app shell");
    assert.match(page, /data-island="UserMenu"/, "in the layout, signed in");
    assert.ok(!page.includes(logDir), "the folder's path stays on the server");
    const api = await t.request("/plugin/logmonitor/files", { headers: { Accept: "text/html" } });
    assert.equal(api.status, 500);
    const body = await api.json();
    assert.equal(body.error, "Internal server error");
    assert.equal(typeof body.code, "string");
    assert.ok(!JSON.stringify(body).includes(logDir));
  } finally {
    await t.close();
  }
});
