/**
 * 13.5 (accounts): account changes made by the account commands — from another process, as an
 * administrator would — apply to live sessions, keys and push sockets at once; sessions have
 * an absolute lifetime; failed logins back off per account and per address without locking
 * the real user out for long.
 */
import assert from "node:assert/strict";
import { createHost, runHostCommand } from "../../lib/host/mod.ts";
import { FakeClock, openWs, waitFor } from "../lib/host/_helpers.ts";
import { REPO_ROOT, tempEnv } from "../_helpers.ts";
import { hostWebApp, serveHostApp } from "../_web.ts";

async function accountsHost() {
  const dataDir = await Deno.makeTempDir();
  const clock = new FakeClock();
  const host = createHost({ plugins: [], dataDir, clock });
  await host.start();
  await host.users.addUser("ann", "ann-pass", ["STATUS", "SETTINGS"]);
  const cli = (argv: string[], stdin = "") =>
    runHostCommand(argv, {
      configFile: host.paths.configFile,
      readStdin: () => Promise.resolve(stdin),
      print: () => {},
    });
  const request = (path: string, init: RequestInit = {}, address = "10.0.0.1") =>
    Promise.resolve(hostWebApp(host).request(path, init, { remoteAddr: { hostname: address } }));
  const login = async (user = "ann", pass = "ann-pass", address = "10.0.0.1") => {
    const res = await request("/api/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://localhost" },
      body: JSON.stringify({ user, pass }),
    }, address);
    const body = await res.json();
    const cookie = res.headers.get("set-cookie")?.split(";")[0] ?? "";
    return { status: res.status, body, cookie, retryAfter: res.headers.get("Retry-After") };
  };
  return {
    host,
    clock,
    cli,
    request,
    login,
    /** A session call: GET settings, or POST settings with the CSRF token. */
    async as(s: { cookie: string; body: { csrf_token?: string } }, method = "GET") {
      const res = await request("/api/settings", {
        method,
        headers: {
          Cookie: s.cookie,
          "X-CSRF-Token": s.body.csrf_token ?? "",
          Origin: "http://localhost",
          "Content-Type": "application/json",
        },
        ...(method === "POST" ? { body: "{}" } : {}),
      });
      await res.body?.cancel();
      return res.status;
    },
    async close() {
      await host.stop();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

Deno.test("a permission cut applies to a live session at its next request", async () => {
  const h = await accountsHost();
  try {
    const s = await h.login();
    assert.equal(await h.as(s, "POST"), 200);
    await h.cli(["user", "set", "ann", "--permissions", "STATUS"]);
    assert.equal(await h.as(s, "POST"), 403, "SETTINGS is gone");
    assert.equal(await h.as(s), 200, "the session itself lives on");
    await h.cli(["user", "add", "ann", "--permissions", "STATUS,SETTINGS"], "ann-pass\n");
    assert.equal(await h.as(s, "POST"), 200, "re-adding with the same password keeps the session");
  } finally {
    await h.close();
  }
});

Deno.test("a password change or a deleted user ends live sessions and keys at once", async () => {
  const h = await accountsHost();
  try {
    const s = await h.login();
    assert.equal(await h.as(s), 200);
    await h.cli(["user", "add", "ann", "--permissions", "STATUS,SETTINGS"], "new-pass\n");
    assert.equal(await h.as(s), 401, "the old password's session ended");
    assert.equal((await h.login("ann", "ann-pass")).status, 401);
    const again = await h.login("ann", "new-pass");
    assert.equal(again.status, 200);
    const key = await h.host.users.createKey("ann");
    await h.cli(["user", "delete", "ann"]);
    assert.equal(await h.as(again), 401, "a deleted user's session ended");
    const byKey = await h.request("/api/settings", { headers: { "X-Api-Key": key } });
    assert.equal(byKey.status, 401, "a deleted user's keys are gone");
    await byKey.body?.cancel();
  } finally {
    await h.close();
  }
});

Deno.test("a session ends at its absolute lifetime even when used all along", async () => {
  const h = await accountsHost();
  try {
    const s = await h.login();
    for (let hour = 1; hour < 24; hour++) {
      h.clock.advance(3600_000);
      assert.equal(await h.as(s), 200, `hour ${hour}`);
    }
    h.clock.advance(3600_000);
    assert.equal(await h.as(s), 401, "24 hours after login");
  } finally {
    await h.close();
  }
});

Deno.test("push sockets close when their key's user is deleted or their session's password changes", async () => {
  const dataDir = await Deno.makeTempDir();
  const clock = new FakeClock();
  const host = createHost({ plugins: [], dataDir, clock });
  const served = await serveHostApp(host, { pages: false });
  const base = `127.0.0.1:${served.port}`;
  try {
    await host.users.addUser("ann", "ann-pass", ["STATUS"]);
    await host.users.addUser("bob", "bob-pass", ["STATUS"]);
    const key = await host.users.createKey("ann");
    const byKey = await openWs(`ws://${base}/push`, { "X-Api-Key": key });
    const login = await fetch(`http://${base}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: `http://${base}` },
      body: JSON.stringify({ user: "bob", pass: "bob-pass" }),
    });
    await login.body?.cancel();
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const bySession = await openWs(`ws://${base}/push`, {
      Cookie: cookie,
      Origin: `http://${base}`,
    });
    await waitFor(() => byKey.messages.length > 0 && bySession.messages.length > 0);
    clock.advance(2000);
    const state = (ws: typeof byKey) =>
      Promise.race([
        ws.closed.then(() => "closed"),
        new Promise((r) => setTimeout(() => r("open"), 100)),
      ]);
    assert.deepEqual([await state(byKey), await state(bySession)], ["open", "open"]);
    await host.users.deleteUser("ann");
    await host.users.addUser("bob", "new-pass", ["STATUS"]);
    clock.advance(2000);
    assert.equal((await byKey.closed).code, 4401);
    assert.equal((await bySession.closed).code, 4401);
  } finally {
    await served.shutdown();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("failed logins back off per account for seconds, not hours; success clears it", async () => {
  const h = await accountsHost();
  try {
    for (let i = 0; i < 3; i++) {
      assert.equal((await h.login("ann", "guess", "6.6.6.6")).status, 401);
    }
    const blocked = await h.login("ann", "ann-pass", "10.0.0.1");
    assert.equal(blocked.status, 429, "the account backs off, from any address");
    assert.equal(blocked.retryAfter, "1");
    h.clock.advance(1000);
    assert.equal((await h.login("ann", "ann-pass", "10.0.0.1")).status, 200, "a second later");
    assert.equal((await h.login("ann", "guess", "6.6.6.6")).status, 401, "success cleared it");
    // A long attack: the account's wait never exceeds 30 s.
    for (let i = 0; i < 25; i++) {
      const r = await h.login("ann", "guess", `6.6.${i}.1`);
      if (r.status === 429) {
        assert.ok(Number(r.retryAfter) <= 30, `wait ${r.retryAfter}`);
        h.clock.advance(Number(r.retryAfter) * 1000);
      }
    }
    h.clock.advance(30_000);
    assert.equal((await h.login("ann", "ann-pass", "10.0.0.1")).status, 200);
    assert.equal(
      (await h.login("bob", "guess", "6.6.6.6")).status,
      401,
      "other accounts unaffected",
    );
  } finally {
    await h.close();
  }
});

Deno.test("failed logins back off per address; other addresses still log in", async () => {
  const h = await accountsHost();
  try {
    for (let i = 0; i < 30; i++) {
      assert.equal((await h.login(`user${i}`, "guess", "6.6.6.6")).status, 401);
    }
    const refused = await h.login("someone", "guess", "6.6.6.6");
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.retryAfter) <= 300);
    assert.equal((await h.login("ann", "ann-pass", "10.0.0.1")).status, 200);
    h.clock.advance(300_000);
    assert.equal((await h.login("ann", "ann-pass", "6.6.6.6")).status, 200, "after the window");
  } finally {
    await h.close();
  }
});

Deno.test("user list and user delete work through deno task host and deno task webapp", async () => {
  await using t = await tempEnv();
  const run = async (program: string, args: string[], stdin = "") => {
    const child = new Deno.Command(Deno.execPath(), {
      args: program === "host" ? ["task", "host", ...args] : ["run", "-A", "webapp.ts", ...args],
      cwd: REPO_ROOT,
      env: { NO_COLOR: "1", ...t.vars },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
    const out = await child.output();
    return {
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
    };
  };
  let r = await run("webapp", ["user", "add", "root", "--permissions", "ADMIN"], "pw\n");
  assert.equal(r.code, 0, r.stderr);
  r = await run("host", ["user", "add", "ann", "--permissions", "STATUS"], "pw\n");
  assert.equal(r.code, 0, r.stderr);
  r = await run("host", ["apikey", "create", "--user", "ann"]);
  assert.equal(r.code, 0, r.stderr);
  r = await run("host", ["user", "list"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^ann\tSTATUS\tpassword\t1 key$/m);
  assert.match(r.stdout, /^root\tADMIN\tpassword\t0 keys$/m);
  r = await run("webapp", ["user", "delete", "ann"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /User ann deleted with 1 key/);
  r = await run("webapp", ["user", "list"]);
  assert.doesNotMatch(r.stdout, /^ann/m);
  r = await run("host", ["user", "delete", "root"]);
  assert.notEqual(r.code, 0, "the last ADMIN stays");
  assert.match(r.stderr, /last user with ADMIN/);
  r = await run("host", ["user", "delete", "ghost"]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /no such user/);
});

Deno.test("a page elsewhere cannot log in nor spend the failed-login budget: the user's own login still works", async () => {
  const h = await accountsHost();
  try {
    const attempts: [HeadersInit, string, string][] = [
      [
        { "Content-Type": "application/json", Origin: "http://evil.example" },
        "json",
        "cross_origin",
      ],
      [{ "Content-Type": "application/json", Origin: "null" }, "json", "cross_origin"],
      [
        { "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site" },
        "json",
        "cross_origin",
      ],
      [
        { "Content-Type": "application/json", "Sec-Fetch-Site": "same-site" },
        "json",
        "cross_origin",
      ],
      [{ "Content-Type": "application/json" }, "json", "origin_required"],
      [{ "Content-Type": "text/plain", Origin: "http://localhost" }, "json", "json_required"],
      [
        { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost" },
        "form",
        "json_required",
      ],
    ];
    // 40 rounds of every forged attempt, from the user's own address, with the wrong password.
    for (let round = 0; round < 40; round++) {
      for (const [headers, kind, code] of attempts) {
        const body = kind === "json"
          ? JSON.stringify({ user: "ann", pass: `guess${round}` })
          : `user=ann&pass=guess${round}`;
        const res = await h.request("/api/login", { method: "POST", headers, body });
        assert.equal((await res.json()).code, code, JSON.stringify(headers));
        assert.ok(res.status === 403 || res.status === 400);
        assert.equal(res.headers.get("set-cookie"), null);
      }
    }
    const own = await h.login();
    assert.equal(own.status, 200, "nothing was counted against the user or the address");
    const bySite = await h.request("/api/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" },
      body: JSON.stringify({ user: "ann", pass: "ann-pass" }),
    });
    assert.equal(bySite.status, 200, "without Origin, Sec-Fetch-Site: same-origin is the proof");
    await bySite.body?.cancel();
  } finally {
    await h.close();
  }
});

Deno.test("a session's state-changing request needs its own origin and a JSON body", async () => {
  const h = await accountsHost();
  try {
    const s = await h.login();
    const post = (headers: Record<string, string>, body = "{}") =>
      h.request("/api/settings", {
        method: "POST",
        headers: { Cookie: s.cookie, "X-CSRF-Token": s.body.csrf_token, ...headers },
        body,
      });
    const cases: [Record<string, string>, number, string][] = [
      [{ Origin: "http://evil.example", "Content-Type": "application/json" }, 403, "cross_origin"],
      [
        { Origin: "http://localhost:8080", "Content-Type": "application/json" },
        403,
        "cross_origin",
      ],
      [{ "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json" }, 403, "cross_origin"],
      [{ "Content-Type": "application/json" }, 403, "origin_required"],
      [{ Origin: "http://localhost", "Content-Type": "text/plain" }, 400, "json_required"],
    ];
    for (const [headers, status, code] of cases) {
      const res = await post(headers);
      assert.equal(res.status, status, JSON.stringify(headers));
      assert.equal((await res.json()).code, code);
    }
    const ok = await post({ "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    const logout = await h.request("/api/logout", {
      method: "POST",
      headers: {
        Cookie: s.cookie,
        "X-CSRF-Token": s.body.csrf_token,
        Origin: "http://evil.example",
      },
    });
    assert.equal(logout.status, 403, "not even a logout from elsewhere");
    await logout.body?.cancel();
  } finally {
    await h.close();
  }
});
