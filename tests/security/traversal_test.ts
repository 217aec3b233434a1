/**
 * 13.1: no route that serves a file by name reads a file outside its folder, whatever the
 * spelling of the name (the corpus of `_corpus.ts`), through the dashboard with the plugin host
 * mounted, as the attacker of the report did (any STATUS key).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createLogMonitorPlugin } from "../../plugins/logmonitor/mod.ts";
import { createTempEtaPlugin } from "../../plugins/temp_eta/mod.ts";
import { SOUNDS_DIR } from "../../plugins/temp_eta/sounds.ts";
import { REPO_STATIC_DIR } from "../../app/mod.ts";
import { testDashboard } from "../routes/_dashboard.ts";
import { plantSecret, probe, traversalTails } from "./_corpus.ts";

Deno.test("no spelling of a path outside the folder is served by any named-file route", async () => {
  await using d = await testDashboard({
    plugins: [createLogMonitorPlugin({ pollMs: 1000 }), createTempEtaPlugin()],
  });
  const host = d.web.host!;
  await host.start();
  await host.users.addUser("viewer", "viewer-pass", ["STATUS"]);
  const key = await host.users.createKey("viewer");
  const config = host.paths.configFile;
  const configMarker = "accessControl";
  assert.ok((await Deno.readTextFile(config)).includes(configMarker));
  const fetcher = (url: string) =>
    Promise.resolve(
      d.web.fetch(new Request(`http://localhost${url}`, { headers: { "X-Api-Key": key } })),
    );

  const routes = [
    { prefix: "/plugin/temp_eta/static/sounds/", dir: SOUNDS_DIR, ext: ".wav" },
    { prefix: "/plugin/logmonitor/download/", dir: host.paths.logDir, ext: ".log" },
    { prefix: "/static/", dir: REPO_STATIC_DIR, ext: ".css" },
    { prefix: "/_islands/", dir: join(REPO_STATIC_DIR, "_islands"), ext: ".js" },
    { prefix: "/", dir: REPO_STATIC_DIR, ext: ".css" },
  ];
  let total = 0;
  for (const route of routes) {
    const secret = await plantSecret(d.env.root, `secret${route.ext}`);
    const tails = [
      ...traversalTails(secret.path, route.dir, route.ext),
      ...traversalTails(config, route.dir, route.ext),
    ];
    const results = await probe(fetcher, route.prefix, tails, [secret.marker, configMarker]);
    total += results.length;
    const leaks = results.filter((r) => r.leaked).map((r) => r.url);
    assert.deepEqual(leaks, [], `${route.prefix}: leaked`);
    const errors = results.filter((r) => r.status >= 500).map((r) => `${r.status} ${r.url}`);
    assert.deepEqual(errors, [], `${route.prefix}: server errors`);
  }
  assert.ok(total > 5000, `the corpus is large (${total})`);
});

Deno.test("the report's double-encoded slash and encoded '#' reach neither config.yaml nor /etc", async () => {
  await using d = await testDashboard({ plugins: [createTempEtaPlugin()] });
  const host = d.web.host!;
  const { adminKey } = await host.start();
  const get = async (tail: string) => {
    const res = await d.web.fetch(
      new Request(`http://localhost/plugin/temp_eta/static/sounds/${tail}`, {
        headers: { "X-Api-Key": adminKey! },
      }),
    );
    return { status: res.status, body: await res.text() };
  };
  const config = host.paths.configFile.replaceAll("/", "%252F");
  for (
    const tail of [
      `x%252F..%252F..%252F..%252F..%252F..%252F..%252F..%252F..%252Fetc%252Fpasswd%2523.wav`,
      `%252Fetc%252Fpasswd%2523.wav`,
      `${config}%2523.wav`,
      `%2e%2e%252f%2e%2e%252fmod.ts%2523.wav`,
    ]
  ) {
    const r = await get(tail);
    assert.equal(r.status, 404, tail);
    assert.doesNotMatch(r.body, /root:|accessControl|PLUGIN_ID/, tail);
  }
  const ok = await get("heating_done.wav");
  assert.equal(ok.status, 200);
});
