/**
 * The MQTT password (any restricted setting) lives in a separate 0600 secrets file, never in
 * config.yaml, never in `GET /api/settings` or in the log, and it survives a restart.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { createHost } from "../../../../lib/host/mod.ts";
import { createLogger } from "../../../../lib/log.ts";
import { createTempEtaPlugin } from "../../../../plugins/temp_eta/mod.ts";
import { FakeClock, json } from "../_helpers.ts";
import { hostWebApp } from "../../../_web.ts";

const PASSWORD = "s3cr3t-Pa55word";

async function run(
  dir: string,
  fn: (h: {
    call(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }>;
    host: ReturnType<typeof createHost>;
  }) => Promise<void>,
  log: string[],
) {
  const host = createHost({
    plugins: [createTempEtaPlugin()],
    dataDir: dir,
    clock: new FakeClock(),
    logger: createLogger("test.host", { sink: (_l, line) => log.push(line) }),
  });
  const { adminKey } = await host.start();
  const key = adminKey ?? (await host.users.createKey("admin"));
  try {
    await fn({
      host,
      async call(method, path, body) {
        const init = body === undefined ? { method } : json(method, body);
        const headers = new Headers(init.headers);
        headers.set("X-Api-Key", key);
        const res = await hostWebApp(host).request(path, { ...init, headers });
        return { status: res.status, text: await res.text() };
      },
    });
  } finally {
    await host.stop();
  }
}

Deno.test("the MQTT password is kept in a separate 0600 secrets file and never answered or logged", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lb_secrets_" });
  const log: string[] = [];
  try {
    await run(dir, async ({ call }) => {
      const saved = await call("POST", "/api/settings", {
        plugins: { temp_eta: { mqtt_username: "eta", mqtt_password: PASSWORD } },
      });
      assert.equal(saved.status, 200);
      assert.ok(!saved.text.includes(PASSWORD));
      const got = await call("GET", "/api/settings");
      assert.ok(!got.text.includes(PASSWORD));
      assert.equal(JSON.parse(got.text).plugins.temp_eta.mqtt_username, "eta");
      // A refused value names the setting, not the secret.
      const refused = await call("POST", "/api/settings", {
        plugins: { temp_eta: { mqtt_password: PASSWORD.repeat(100) } },
      });
      assert.equal(refused.status, 400);
      assert.match(refused.text, /mqtt_password/);
      assert.ok(!refused.text.includes(PASSWORD));
    }, log);
    const config = await Deno.readTextFile(join(dir, "host", "config.yaml"));
    assert.ok(!config.includes(PASSWORD));
    assert.match(config, /mqtt_username: eta/);
    const secretsFile = join(dir, "host", "secrets.yaml");
    assert.equal(
      parse(await Deno.readTextFile(secretsFile)).plugins.temp_eta.mqtt_password,
      PASSWORD,
    );
    assert.equal((await Deno.stat(secretsFile)).mode! & 0o777, 0o600);

    await run(dir, ({ host }) => {
      assert.equal(host.settings.get("temp_eta").mqtt_password, PASSWORD, "kept across a restart");
      return Promise.resolve();
    }, log);
    assert.ok(!log.join("\n").includes(PASSWORD));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a password still stored in config.yaml moves to the secrets file at the next start", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lb_secrets_" });
  const log: string[] = [];
  try {
    await Deno.mkdir(join(dir, "host"), { recursive: true });
    await Deno.writeTextFile(
      join(dir, "host", "config.yaml"),
      `plugins:\n  temp_eta:\n    mqtt_broker_host: broker.local\n    mqtt_username: eta\n    mqtt_password: ${PASSWORD}\n`,
    );
    await run(dir, async ({ host, call }) => {
      assert.equal(host.settings.get("temp_eta").mqtt_password, PASSWORD);
      assert.equal(host.settings.get("temp_eta").mqtt_broker, "broker.local");
      assert.ok(!(await call("GET", "/api/settings")).text.includes(PASSWORD));
      // Resetting the plugin removes the secret too.
    }, log);
    assert.ok(!(await Deno.readTextFile(join(dir, "host", "config.yaml"))).includes(PASSWORD));
    assert.match(await Deno.readTextFile(join(dir, "host", "secrets.yaml")), new RegExp(PASSWORD));
    await run(dir, async ({ call }) => {
      assert.equal((await call("DELETE", "/api/settings/plugins/temp_eta")).status, 200);
    }, log);
    assert.ok(!(await Deno.readTextFile(join(dir, "host", "secrets.yaml"))).includes(PASSWORD));
    assert.ok(!log.join("\n").includes(PASSWORD));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
