import assert from "node:assert/strict";
import { proxied } from "../../../../lib/modelserver/http1/mod.ts";
import { REPO_ROOT } from "../../../_helpers.ts";
import { rawServer, send } from "./_raw_server.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("proxied() follows HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY, in either case", () => {
  const http = new URL("http://models.lan:1234/v1");
  const https = new URL("https://api.example.com/v1");
  assert.equal(proxied(http, env({})), false);
  assert.equal(proxied(http, env({ HTTP_PROXY: "http://proxy:3128" })), true);
  assert.equal(proxied(http, env({ http_proxy: "http://proxy:3128" })), true);
  assert.equal(proxied(http, env({ HTTPS_PROXY: "http://proxy:3128" })), false);
  assert.equal(proxied(https, env({ HTTPS_PROXY: "http://proxy:3128" })), true);
  assert.equal(proxied(https, env({ all_proxy: "http://proxy:3128" })), true);
  const p = { HTTP_PROXY: "http://proxy:3128", HTTPS_PROXY: "http://proxy:3128" };
  assert.equal(proxied(http, env({ ...p, NO_PROXY: "*" })), false);
  assert.equal(proxied(http, env({ ...p, NO_PROXY: "localhost, models.lan" })), false);
  assert.equal(proxied(http, env({ ...p, no_proxy: ".lan" })), false);
  assert.equal(proxied(https, env({ ...p, NO_PROXY: "example.com" })), true);
  assert.equal(proxied(https, env({ ...p, NO_PROXY: ".example.com" })), false);
  assert.equal(proxied(https, env({ ...p, NO_PROXY: "*.example.com:443" })), false);
  assert.equal(proxied(new URL("http://[::1]:8080/"), env({ ...p, NO_PROXY: "::1" })), false);
  assert.equal(
    proxied(new URL("http://[::1]:8080/"), env({ ...p, NO_PROXY: "[::1]:8080" })),
    false,
  );
  assert.equal(proxied(new URL("http://[::2]:8080/"), env({ ...p, NO_PROXY: "::1" })), true);
  assert.equal(proxied(http, env({ ...p, NO_PROXY: "other.lan" })), true);
});

Deno.test("a model server behind HTTP_PROXY is reached through the proxy (fetch), not directly", async () => {
  await using proxy = rawServer(async (conn) => {
    const body = JSON.stringify({ data: [{ id: "through-the-proxy" }] });
    await send(conn, `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    return "close";
  });
  const script = `
    import { createBackend } from "${REPO_ROOT}/lib/modelserver/factory.ts";
    const b = createBackend({ backend: "openai", base_url: "http://models.invalid:1234", timeout_ms: 5000 });
    const list = await b.listModels();
    console.log(JSON.stringify(list.map((m) => m.key)));
    await b.close();
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", script],
    env: { HTTP_PROXY: proxy.url, NO_PROXY: "", no_proxy: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), ["through-the-proxy"]);
  assert.match(proxy.requests[0]!, /^GET http:\/\/models\.invalid:1234\/v1\/models HTTP\/1\.1\r\n/);
});
