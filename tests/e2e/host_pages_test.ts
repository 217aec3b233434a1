import assert from "node:assert/strict";
import { createUptimePlugin } from "../../plugins/host_uptime/mod.ts";
import { createLogMonitorPlugin } from "../../plugins/logmonitor/mod.ts";
import { json, startTestHost } from "../lib/host/_helpers.ts";

async function uiHost() {
  return await startTestHost({
    plugins: [createLogMonitorPlugin(), createUptimePlugin()],
    pages: true,
  });
}

Deno.test("host pages redirect to the login page without a session", async () => {
  const t = await uiHost();
  try {
    const res = await t.request("/plugins/logmonitor/", { key: null });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), "/plugins/login?next=%2Fplugins%2Flogmonitor%2F");
    const login = await t.request("/plugins/login?next=//evil.example", { key: null });
    assert.equal(login.status, 200);
    const html = await login.text();
    assert.ok(html.includes('data-next="/plugins/"'), "no open redirect");
    assert.ok(html.includes('data-island="LoginForm"'));
  } finally {
    await t.close();
  }
});

Deno.test("the former page URLs redirect permanently to the plugin's page, query kept", async () => {
  const t = await uiHost();
  try {
    const logs = await t.request("/plugins/logs?file=app.log", { key: null });
    assert.equal(logs.status, 301);
    assert.equal(logs.headers.get("location"), "/plugins/logmonitor/?file=app.log");
    const index = await t.request("/plugins", { key: t.keys.STATUS });
    assert.equal(index.status, 302);
    assert.equal(index.headers.get("location"), "/plugins/logmonitor/");
    // A plugin that is not hosted has no page (and its former URL no redirect).
    assert.equal((await t.request("/plugins/power", { key: t.keys.STATUS })).status, 404);
    assert.equal((await t.request("/plugins/branchplus/", { key: t.keys.STATUS })).status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("the log viewer page renders for a session with its CSRF token and files", async () => {
  const t = await uiHost();
  try {
    await Deno.writeTextFile(`${t.host.paths.logDir}/app.log`, "x\n");
    const login = await t.request("/api/login", {
      ...json("POST", { user: "status", pass: "STATUS-pass" }, { Origin: "http://localhost" }),
      key: null,
    });
    const { csrf_token } = await login.json();
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const res = await t.request("/plugins/logmonitor/", { key: null, headers: { Cookie: cookie } });
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(
      html.includes('data-island="logmonitor/LogViewer"') &&
        html.includes('data-island="host_uptime/UptimeWidget"'),
    );
    assert.ok(html.includes(csrf_token));
    assert.ok(html.includes("app.log"));
    assert.ok(html.includes('href="/styles.css"'), "the dashboard's stylesheet");
    assert.ok(html.includes('href="/_islands/plugins.css"'), "the plugins' stylesheet");
    assert.match(html, /aria-current="page"[^>]*>Logs</, "the current page is marked");
    const denied = await t.request("/plugins/logmonitor/", { key: t.keys.CONTROL });
    assert.equal(denied.status, 403);
    const page = await t.request("/plugins/logmonitor/", {
      key: t.keys.CONTROL,
      headers: { Accept: "text/html" },
    });
    assert.equal(page.status, 403);
    assert.match(await page.text(), /Permission STATUS required/);
  } finally {
    await t.close();
  }
});

Deno.test("static files and island bundles are public while the APIs stay protected", async () => {
  const t = await uiHost();
  try {
    for (
      const path of [
        "/styles.css",
        "/_islands/plugins.css",
        "/_islands/boot.js",
        "/_islands/logmonitor/LogViewer.js",
      ]
    ) {
      const res = await t.request(path, { key: null });
      assert.equal(res.status, 200, path);
      await res.body?.cancel();
    }
    const escape = await t.request("/static/../deno.json", { key: null });
    assert.equal(escape.status, 404);
    assert.doesNotMatch(await escape.text(), /nodeModulesDir/);
    assert.equal((await t.request("/plugin/logmonitor/files", { key: null })).status, 401);
  } finally {
    await t.close();
  }
});
