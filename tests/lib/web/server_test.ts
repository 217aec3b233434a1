import assert from "node:assert/strict";
import { Hono } from "hono";
import { h } from "preact";
import { createHost, type Host } from "../../../lib/host/mod.ts";
import type { PluginDescriptor, PluginInstance, Settings } from "../../../lib/host/plugin.ts";
import { definePluginPages, requireSignIn } from "../../../lib/host/pages.ts";
import { listenHostNames } from "../../../lib/http/host_allow.ts";
import type { LayoutProps, Manifest } from "../../../lib/http/fw/mod.ts";
import { createLogger } from "../../../lib/log.ts";
import { assertIslandsBuilt, createWebServer } from "../../../lib/web/server.ts";
import type { WebState } from "../../../lib/web/state.ts";
import * as v from "valibot";

interface ProbeInstance extends PluginInstance {
  greeting: string;
}

const probe: PluginDescriptor<Settings, ProbeInstance> = {
  id: "probe",
  name: "Probe",
  version: "1",
  settingsVersion: 1,
  settingsSchema: v.strictObject({}),
  ui: { nav: "Probe", formerPaths: ["/plugins/old-probe"], navbar: ["ProbeWidget"] },
  create: () => ({
    greeting: "hello from the instance",
    routes: [
      { base: "/api/plugin/probe", app: new Hono().get("/", (c) => c.json({ ok: true })) },
      { base: "/plugin/probe", app: new Hono().get("/deep/:x", (c) => c.json({ ok: true })) },
    ],
  }),
};

const define = definePluginPages<ProbeInstance>();

/** A project with the root layout, the host's sign-in and the probe's page. */
const manifest: Manifest = {
  routes: {
    "routes/_layout.tsx": {
      default: ({ state, Component }: LayoutProps<WebState>) =>
        h(
          "div",
          null,
          h("nav", null, state.nav.map((l) => h("a", { href: l.href }, l.label))),
          h("i", null, state.navbar.join(",")),
          h(Component, null),
        ),
    },
    "routes/plugins/_middleware.ts": { default: requireSignIn() },
    "plugins/probe/routes/index.tsx": {
      default: define.page(({ state }) => h("p", { id: "greeting" }, state.plugin.greeting)),
    },
  },
  islands: {},
};

async function served(options: { hostPages?: boolean } = {}) {
  const dataDir = await Deno.makeTempDir({ prefix: "lb_web_" });
  const host: Host = createHost({
    plugins: [probe],
    dataDir,
    logger: createLogger("t", { sink: () => {} }),
  });
  const { adminKey } = await host.start();
  const app = createWebServer({
    manifest,
    staticDir: dataDir,
    allowedHosts: listenHostNames("127.0.0.1"),
    host,
    ...options,
  });
  return {
    host,
    request: (path: string, key: string | null = adminKey) =>
      app.request(`http://localhost${path}`, { headers: key ? { "X-Api-Key": key } : {} }),
    async [Symbol.asyncDispose]() {
      await host.stop();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

Deno.test("the host's routes, its own and its plugins', reach it without a list of paths", async () => {
  await using s = await served();
  for (const path of ["/api/settings", "/api/plugin/probe", "/plugin/probe/deep/1", "/api/job"]) {
    const res = await s.request(path, null);
    assert.equal(res.status, 401, `${path}: the host's authentication answers`);
    await res.body?.cancel();
  }
  assert.equal((await s.request("/api/plugin/probe")).status, 200);
  // Not the host's: the web app answers (no dashboard here).
  const status = await s.request("/api/status", null);
  assert.equal(status.status, 404);
  assert.deepEqual(await status.json(), { error: "Not found", code: "not_found" });
  assert.equal(s.host.handles("/api/settingsx"), false);
  assert.equal(s.host.handles("/plugin/probe/anything/below"), true);
});

Deno.test("a hosted plugin's page is mounted at /plugins/<id>/ with its instance and the nav", async () => {
  await using s = await served();
  const res = await s.request("/plugins/probe/");
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /<p id="greeting">hello from the instance<\/p>/);
  assert.match(html, /<a href="\/plugins\/probe\/">Probe<\/a>/);
  assert.match(html, /<i>probe\/ProbeWidget<\/i>/, "the navbar island, named by the plugin's id");
  const anonymous = await s.request("/plugins/probe/", null);
  assert.equal(anonymous.status, 302);
  assert.equal(anonymous.headers.get("location"), "/plugins/login?next=%2Fplugins%2Fprobe%2F");
});

Deno.test("a plugin's former page URL redirects permanently, query kept", async () => {
  await using s = await served();
  const res = await s.request("/plugins/old-probe?x=1&y=2", null);
  assert.equal(res.status, 301);
  assert.equal(res.headers.get("location"), "/plugins/probe/?x=1&y=2");
});

Deno.test("without the host's pages (--no-ui) only the APIs are served", async () => {
  await using s = await served({ hostPages: false });
  assert.equal((await s.request("/plugins/probe/")).status, 404);
  assert.equal((await s.request("/plugins/old-probe")).status, 404);
  assert.equal((await s.request("/api/plugin/probe")).status, 200);
});

Deno.test("assertIslandsBuilt() names the folder and the build command when bundles are missing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      assertIslandsBuilt({ routes: {}, islands: {} }, dir),
      {
        name: "SetupError",
        message: /bundles are missing in .*_islands \(run 'deno task build'\)/,
      },
    );
    await Deno.mkdir(`${dir}/_islands`);
    await Deno.writeTextFile(`${dir}/_islands/boot.js`, "");
    await assertIslandsBuilt({ routes: {}, islands: {} }, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
