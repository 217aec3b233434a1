import assert from "node:assert/strict";
import { AppError } from "../../../lib/error.ts";
import { HttpTransport } from "../../../lib/modelserver/http.ts";
import { makeCerts } from "../../_certs.ts";
import { REPO_ROOT } from "../../_helpers.ts";
import { rawServer, send } from "./_raw_server.ts";

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n"ok"';

const list = (http: HttpTransport) => http.json("GET", "/v1/models", undefined, "list models");

/** Runs a script with `deno run` and the given flags; returns its output. */
async function runScript(flags: string[], code: string, env: Record<string, string> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "localbench-reach-" });
  try {
    await Deno.writeTextFile(`${dir}/script.ts`, code);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--no-prompt", ...flags, `${dir}/script.ts`],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: decode(out.stdout).trim(), stderr: decode(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("localhost reaches a server on 127.0.0.1, and is 'unreachable' when nothing listens", async () => {
  await using server = rawServer(async (conn) => {
    await send(conn, OK);
    return "close";
  });
  assert.equal(await list(new HttpTransport({ baseUrl: `http://localhost:${server.port}` })), "ok");
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = probe.addr.port;
  probe.close();
  const err = await list(new HttpTransport({ baseUrl: `http://localhost:${port}` })).catch((e) =>
    e
  );
  assert.ok(err instanceof AppError);
  assert.equal(err.code, "unreachable");
  assert.match(err.message, new RegExp(`Cannot reach the model server at localhost:${port}`));
});

/** Whether this system lets a process see its own /etc/hosts (a user and mount namespace). */
const ownHosts = await new Deno.Command("unshare", { args: ["-rm", "true"], stderr: "null" })
  .output().then((o) => o.success, () => false);

Deno.test({
  name: "localhost resolving to ::1 first still reaches a server on 127.0.0.1 only",
  ignore: !ownHosts,
  fn: async () => {
    await using server = rawServer(async (conn) => {
      await send(conn, OK);
      return "close";
    });
    const dir = await Deno.makeTempDir({ prefix: "localbench-hosts-" });
    try {
      await Deno.writeTextFile(`${dir}/hosts`, "::1 localhost\n127.0.0.1 localhost\n");
      const script = `import { HttpTransport } from "${REPO_ROOT}/lib/modelserver/http.ts";
        const http = new HttpTransport({ baseUrl: "http://localhost:${server.port}" });
        console.log(await http.json("GET", "/", undefined, "read"));`;
      const out = await new Deno.Command("unshare", {
        args: ["-rm", "sh", "-c", 'mount --bind "$0" /etc/hosts && exec "$1" eval "$2"'].concat(
          [`${dir}/hosts`, Deno.execPath(), script],
        ),
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      assert.equal(new TextDecoder().decode(out.stdout).trim(), "ok");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("an HTTPS base URL works, its certificate checked against the URL's host", async () => {
  const dir = await Deno.makeTempDir({ prefix: "localbench-tls-" });
  const certs = await makeCerts(dir);
  const listener = Deno.listenTls({
    hostname: "127.0.0.1",
    port: 0,
    cert: await Deno.readTextFile(certs.certFile),
    key: await Deno.readTextFile(certs.keyFile),
  });
  const serving = (async () => {
    for await (const conn of listener) {
      try {
        if ((await conn.read(new Uint8Array(4096))) !== null) await send(conn, OK);
      } catch {
        // the client refused our certificate: the handshake fails on this side too
      } finally {
        conn.close();
      }
    }
  })();
  const port = listener.addr.port;
  const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(certs.caFile)] });
  const trusted: typeof fetch = (input, init) => fetch(input, { ...init, client });
  try {
    for (const host of ["127.0.0.1", "localhost"]) {
      const http = new HttpTransport({ baseUrl: `https://${host}:${port}`, fetch: trusted });
      assert.equal(await list(http), "ok");
    }
    const err = await list(new HttpTransport({ baseUrl: `https://127.0.0.1:${port}` }))
      .catch((e) => e);
    assert.ok(err instanceof AppError);
    assert.match(err.message, /certificate|UnknownIssuer/i);
  } finally {
    client.close();
    listener.close();
    await serving.catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a process allowed to reach the model server by name only (--allow-net=localhost:PORT) reaches it", async () => {
  await using server = rawServer(async (conn) => {
    await send(conn, OK);
    return "close";
  });
  const out = await runScript(
    ["--allow-read", `--allow-net=localhost:${server.port}`],
    `import { HttpTransport } from "${REPO_ROOT}/lib/modelserver/http.ts";
    const http = new HttpTransport({ baseUrl: "http://localhost:${server.port}" });
    console.log(await http.json("GET", "/", undefined, "read"));`,
  );
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, "ok");
});

Deno.test("a model server behind HTTP_PROXY is reached through the proxy", async () => {
  await using proxy = rawServer(async (conn) => {
    const body = JSON.stringify({ data: [{ id: "through-the-proxy" }] });
    await send(conn, `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    return "close";
  });
  const out = await runScript(
    ["-A"],
    `import { createBackend } from "${REPO_ROOT}/lib/modelserver/factory.ts";
    const b = createBackend({ backend: "openai", base_url: "http://models.invalid:1234", timeout_ms: 5000 });
    const list = await b.listModels();
    console.log(JSON.stringify(list.map((m) => m.key)));
    await b.close();`,
    { HTTP_PROXY: proxy.url, NO_PROXY: "", no_proxy: "" },
  );
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), ["through-the-proxy"]);
  assert.match(proxy.requests[0]!, /^GET http:\/\/models\.invalid:1234\/v1\/models HTTP\/1\.1\r\n/);
});
