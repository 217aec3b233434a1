import assert from "node:assert/strict";
import { createLogMonitorPlugin } from "../../plugins/logmonitor/mod.ts";
import { hostUiRoutes } from "../../routes/plugins/mod.ts";
import { json, startTestHost } from "../lib/host/_helpers.ts";

async function uiHost() {
  return await startTestHost({
    plugins: [createLogMonitorPlugin()],
    beforeAuth: (app, s) => app.route("/", hostUiRoutes({ ...s, logDir: s.paths.logDir })),
  });
}

Deno.test("host pages redirect to the login page without a session", async () => {
  const t = await uiHost();
  try {
    const res = await t.request("/plugins/logs", { key: null });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), "/plugins/login?next=%2Fplugins%2Flogs");
    const login = await t.request("/plugins/login?next=//evil.example", { key: null });
    assert.equal(login.status, 200);
    const html = await login.text();
    assert.ok(html.includes('data-next="/plugins/logs"'), "no open redirect");
  } finally {
    await t.close();
  }
});

Deno.test("the log viewer page renders for a session with its CSRF token and files", async () => {
  const t = await uiHost();
  try {
    await Deno.writeTextFile(`${t.host.paths.logDir}/app.log`, "x\n");
    const login = await t.request("/api/login", {
      ...json("POST", { user: "status", pass: "STATUS-pass" }),
      key: null,
    });
    const { csrf_token } = await login.json();
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const res = await t.request("/plugins/logs", { key: null, headers: { Cookie: cookie } });
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(
      html.includes('data-island="LogViewer"') && html.includes('data-island="UptimeWidget"'),
    );
    assert.ok(html.includes(csrf_token));
    assert.ok(html.includes("app.log"));
    const denied = await t.request("/plugins/logs", { key: t.keys.CONTROL });
    assert.equal(denied.status, 403);
  } finally {
    await t.close();
  }
});

Deno.test("static files and island bundles are public while the APIs stay protected", async () => {
  const t = await uiHost();
  try {
    const css = await t.request("/static/plugins/host.css", { key: null });
    assert.equal(css.status, 200);
    await css.body?.cancel();
    assert.equal((await t.request("/static/../deno.json", { key: null })).status, 401);
    assert.equal((await t.request("/plugin/logmonitor/files", { key: null })).status, 401);
  } finally {
    await t.close();
  }
});
