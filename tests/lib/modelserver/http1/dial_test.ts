import assert from "node:assert/strict";
import { makeCerts } from "../../../_certs.ts";
import { Http1Client, tcpConnector } from "../../../../lib/modelserver/http1/mod.ts";
import { rawServer, send } from "./_raw_server.ts";

const OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

Deno.test("tcpConnector() tries a host's next address when one refuses, and that one first next time", async () => {
  await using server = rawServer(async (conn) => {
    await send(conn, OK);
    return "keep";
  });
  const asked: string[] = [];
  const connect = tcpConnector({
    resolve: (host) => {
      asked.push(host);
      return Promise.resolve(["127.0.0.2", "::1", "127.0.0.1"]); // as `localhost` may resolve
    },
  });
  for (let i = 0; i < 2; i++) {
    const conn = await connect({ tls: false, hostname: "model-host", port: server.port });
    const remote = (conn as Deno.TcpConn).remoteAddr;
    assert.equal(remote.hostname, "127.0.0.1");
    conn.close();
  }
  assert.deepEqual(asked, ["model-host"], "resolved once, then reused");
});

Deno.test("tcpConnector() fails with the last address's error when none answers, and resolves again", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = probe.addr.port;
  probe.close(); // nothing listens there now
  let asked = 0;
  const connect = tcpConnector({
    resolve: () => {
      asked++;
      return Promise.resolve(["127.0.0.2", "127.0.0.1"]);
    },
  });
  for (let i = 0; i < 2; i++) {
    await assert.rejects(
      connect({ tls: false, hostname: "model-host", port }),
      Deno.errors.ConnectionRefused,
    );
  }
  assert.equal(asked, 2);
  await assert.rejects(
    tcpConnector({ resolve: () => Promise.resolve([]) })({ tls: false, hostname: "x", port }),
    Deno.errors.NotFound,
  );
});

Deno.test("Http1Client speaks HTTPS with the certificate checked against the URL's host", async () => {
  const dir = await Deno.makeTempDir({ prefix: "localbench-tls-" });
  try {
    const certs = await makeCerts(dir);
    const listener = Deno.listenTls({
      hostname: "127.0.0.1",
      port: 0,
      cert: await Deno.readTextFile(certs.certFile),
      key: await Deno.readTextFile(certs.keyFile),
      alpnProtocols: ["http/1.1"],
    });
    const serving = (async () => {
      for await (const conn of listener) {
        try {
          const buf = new Uint8Array(4096);
          if ((await conn.read(buf)) !== null) await send(conn, OK);
        } catch (err) {
          // the client refused our certificate: the handshake fails on this side too
          if (
            !(err instanceof Deno.errors.InvalidData || err instanceof Deno.errors.ConnectionReset)
          ) {
            throw err;
          }
        } finally {
          conn.close();
        }
      }
    })();
    const port = listener.addr.port;
    const trusted = new Http1Client({ caCerts: [await Deno.readTextFile(certs.caFile)] });
    const plain = new Http1Client();
    try {
      assert.equal(await (await trusted.request(`https://127.0.0.1:${port}/`)).text(), "ok");
      assert.equal(await (await trusted.request(`https://localhost:${port}/v1`)).text(), "ok");
      await assert.rejects(
        plain.request(`https://127.0.0.1:${port}/`),
        /certificate|UnknownIssuer/i,
      );
    } finally {
      trusted.close();
      plain.close();
      listener.close();
      await serving.catch((err) => {
        if (!(err instanceof Deno.errors.BadResource)) throw err;
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a process allowed to reach the model server by name only (--allow-net=localhost:PORT) connects by name", async () => {
  await using server = rawServer(async (conn) => {
    await send(conn, OK);
    return "close";
  });
  const dir = await Deno.makeTempDir({ prefix: "localbench-dial-" });
  try {
    const script = `${dir}/by_name.ts`;
    const mod = new URL("../../../../lib/modelserver/http1/mod.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { Http1Client } from "${mod}";
      const client = new Http1Client();
      console.log(await (await client.request("http://localhost:${server.port}/")).text());
      client.close();`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        "--allow-read",
        `--allow-net=localhost:${server.port}`,
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "ok");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
