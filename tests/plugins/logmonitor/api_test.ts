import assert from "node:assert/strict";
import { json } from "../../lib/host/_helpers.ts";
import { FakeClock } from "../../lib/host/_helpers.ts";
import { parseSearchParams, searchFile } from "../../../plugins/logmonitor/mod.ts";
import { logLine, startLogHost } from "./_host.ts";
import { TRAVERSAL_CORPUS } from "./files_test.ts";
import { hostWebApp } from "../../_web.ts";

const BASE = "/plugin/logmonitor";

Deno.test("GET /files lists the .log files with name, size and modified", async () => {
  const t = await startLogHost({
    "b.log": "12345\n",
    "a.log": "1\n",
    "notes.txt": "x",
    ".hidden.log": "x",
  });
  try {
    const res = await t.request(`${BASE}/files`, { key: t.keys.STATUS });
    assert.equal(res.status, 200);
    const { files } = await res.json();
    const names = files.map((f: { name: string }) => f.name);
    assert.deepEqual(names.filter((n: string) => n !== "host.log"), ["a.log", "b.log"]);
    const b = files.find((f: { name: string }) => f.name === "b.log");
    assert.equal(b.size, 6);
    assert.ok(typeof b.modified === "number" && b.modified > 1e9);
  } finally {
    await t.close();
  }
});

Deno.test("GET /download/<file> returns the file as an attachment with 400/403/404 otherwise", async () => {
  const t = await startLogHost({ "a.log": "hello\n" });
  try {
    await Deno.writeTextFile(`${t.dir}/outside.log`, "secret\n");
    await Deno.symlink(`${t.dir}/outside.log`, `${t.logDir}/link.log`);
    const ok = await t.request(`${BASE}/download/a.log`, { key: t.keys.STATUS });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get("content-disposition"), 'attachment; filename="a.log"');
    assert.equal(await ok.text(), "hello\n");
    const cases: [string, number, string][] = [
      ["..%2Foutside.log", 400, "Invalid filename"],
      [".hidden.log", 400, "Invalid filename"],
      ["a.txt", 400, "Invalid filename"],
      ["link.log", 403, "Access denied"],
      ["nope.log", 404, "File not found"],
    ];
    for (const [name, status, error] of cases) {
      const res = await t.request(`${BASE}/download/${name}`);
      assert.equal(res.status, status, name);
      const body = await res.json();
      assert.equal(body.error, error, name);
      assert.match(body.code, /^[a-z_]+$/, name);
    }
  } finally {
    await t.close();
  }
});

Deno.test("no name of the traversal corpus escapes through download or search", async () => {
  const t = await startLogHost({ "host2.log": "x\n" });
  try {
    await Deno.writeTextFile(`${t.dir}/secret.log`, "TOPSECRET\n");
    await Deno.symlink(`${t.dir}/secret.log`, `${t.logDir}/escape.log`);
    const raw = [
      "..%2F..%2Fsecret.log",
      "%2e%2e%2f%2e%2e%2fsecret.log",
      "..%5Csecret.log",
      "%00.log",
      "host2.log%00",
    ];
    for (const name of [...TRAVERSAL_CORPUS.map(encodeURIComponent), ...raw]) {
      for (const path of [`${BASE}/download/${name}`, `${BASE}/search?file=${name}&query=TOP`]) {
        const res = await t.request(path);
        const text = await res.text();
        assert.ok(!text.includes("TOPSECRET"), `${path} leaked`);
        assert.ok([400, 403, 404, 429].includes(res.status), `${path}: ${res.status}`);
      }
    }
    for (const body of [{ file: "../secret.log" }, { file: "escape.log" }]) {
      const res = await t.request(`${BASE}/stream/start`, json("POST", body));
      assert.ok([400, 403].includes(res.status));
    }
  } finally {
    await t.close();
  }
});

Deno.test("GET /search returns a page with all parameters and the default file", async () => {
  const lines = Array.from(
    { length: 30 },
    (_, i) => logLine(i % 2 ? "WARNING" : "INFO", `event ${i}`),
  ).join("");
  const t = await startLogHost({ "app.log": lines });
  try {
    await t.host.settings.updateMany({
      logmonitor: { default_log_file: "app.log", search_page_size: 10, regex_search_enabled: true },
    });
    const res = await t.request(`${BASE}/search?query=EVENT&levels=WARNING&offset=2`, {
      key: t.keys.STATUS,
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.limit, 10);
    assert.equal(body.offset, 2);
    assert.equal(body.total, 13);
    assert.equal(body.results[0].message, "event 5");
    assert.deepEqual(Object.keys(body.results[0]).sort(), [
      "level",
      "logger",
      "message",
      "raw",
      "timestamp",
    ]);
    const exact =
      await (await t.request(`${BASE}/search?file=app.log&query=EVENT&case_sensitive=true`)).json();
    assert.equal(exact.total, 0);
    const re =
      await (await t.request(`${BASE}/search?file=app.log&query=event%20(1|2)$&use_regex=true`))
        .json();
    assert.equal(re.total, 2);
  } finally {
    await t.close();
  }
});

Deno.test("GET /search answers 400, 404 and 413 for bad parameters, missing and huge files", async () => {
  const t = await startLogHost({ "a.log": "x\n", "huge.log": "" });
  try {
    await t.host.settings.updateMany({ logmonitor: { regex_search_enabled: true } });
    await Deno.truncate(`${t.logDir}/huge.log`, 1024 ** 3 + 1);
    const cases: [string, number, string][] = [
      ["file=a.log&limit=abc", 400, "offset and limit must be integers"],
      ["file=a.log&limit=5000", 400, "limit exceeds maximum of 1000"],
      ["file=a.log&levels=LOUD", 400, "Invalid severity level(s): LOUD"],
      ["file=a.log&query=(&use_regex=true", 400, ""],
      ["file=../a.log", 400, "Invalid filename"],
      ["file=none.log", 404, "Log file not found"],
      ["file=huge.log", 413, "Log file is too large to process"],
    ];
    for (const [q, status, error] of cases) {
      const res = await t.request(`${BASE}/search?${q}`);
      assert.equal(res.status, status, q);
      const body = await res.json();
      if (error) assert.equal(body.error, error, q);
    }
    await Deno.truncate(`${t.logDir}/huge.log`, 1024 ** 3);
    const edge = await t.request(`${BASE}/search?file=huge.log&limit=1`);
    assert.notEqual(edge.status, 413, "exactly 1 GiB is allowed");
    await edge.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("GET /search allows 10 requests per minute per address and per account, then answers 429 and logs it at INFO", async () => {
  const clock = new FakeClock();
  const t = await startLogHost({ "a.log": "x\n" }, { clock });
  try {
    const search = (ip: string, key = t.keys.STATUS) =>
      hostWebApp(t.host).request(`${BASE}/search?file=a.log`, {
        headers: { "X-Api-Key": key },
      }, {
        remoteAddr: { hostname: ip },
      });
    for (let i = 0; i < 10; i++) {
      assert.equal((await search("10.0.0.1")).status, 200, `request ${i + 1}`);
    }
    clock.advance(15_000);
    const limited = await search("10.0.0.1");
    assert.equal(limited.status, 429);
    assert.equal(
      limited.headers.get("retry-after"),
      "45",
      "seconds until the oldest request leaves",
    );
    assert.equal((await limited.json()).error, "Too many requests. Please slow down.");
    for (const ip of ["127.0.0.2", "127.0.0.3", "10.0.0.2"]) {
      const alias = await search(ip);
      assert.equal(alias.status, 429, `${ip}: the account's budget is shared by its addresses`);
      await alias.body?.cancel();
    }
    const other = await search("10.0.0.2", t.keys.ADMIN);
    assert.equal(other.status, 200, "another account at another address is not limited");
    await other.body?.cancel();
    const sameAddress = await search("10.0.0.1", t.keys.ADMIN);
    assert.equal(sameAddress.status, 429, "nor does another account refill the address's budget");
    await sameAddress.body?.cancel();
    clock.advance(60_000);
    assert.equal((await search("10.0.0.1")).status, 200, "the window slides");
    // The limit doing its job is logged at INFO: no WARNING raises the monitor's own alerts.
    const hostLog = await Deno.readTextFile(`${t.logDir}/host.log`);
    assert.match(hostLog, / - INFO - \[SECURITY\] rate_limit_exceeded: client=10\.0\.0\.1$/m);
    assert.doesNotMatch(hostLog, / - (WARNING|ERROR) - /);
  } finally {
    await t.close();
  }
});

Deno.test("POST /export returns CSV and TXT attachments and rejects bad input", async () => {
  const t = await startLogHost();
  try {
    const results = [{ timestamp: "t", logger: "l", level: "INFO", message: "m" }];
    const csv = await t.request(`${BASE}/export`, json("POST", { results, format: "csv" }));
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get("content-type")!, /^text\/csv/);
    assert.match(csv.headers.get("content-disposition")!, /logmonitor_export\.csv/);
    assert.equal(await csv.text(), "timestamp,logger,level,message\r\nt,l,INFO,m\r\n");
    const txt = await t.request(`${BASE}/export`, json("POST", { results, format: "txt" }));
    assert.equal(await txt.text(), "t - l - INFO - m");
    const tooMany = await t.request(
      `${BASE}/export`,
      json("POST", { results: Array(1001).fill(results[0]), format: "csv" }),
    );
    assert.equal(tooMany.status, 400);
    const badFormat = await t.request(`${BASE}/export`, json("POST", { results, format: "xml" }));
    assert.deepEqual([badFormat.status, await badFormat.json()], [400, {
      error: "Invalid format",
      code: "bad_request",
    }]);
  } finally {
    await t.close();
  }
});

Deno.test("stream start and stop report their status and initial lines", async () => {
  const initial = Array.from({ length: 150 }, (_, i) => logLine("INFO", `line ${i}`)).join("");
  const t = await startLogHost({ "a.log": initial, "big.log": "" });
  try {
    const stopIdle = await t.request(`${BASE}/stream/stop`, { method: "POST" });
    assert.deepEqual(await stopIdle.json(), { status: "not_running" });
    const start = await (await t.request(`${BASE}/stream/start`, json("POST", { file: "a.log" })))
      .json();
    assert.equal(start.status, "started");
    assert.equal(start.file, "a.log");
    assert.equal(start.initial_lines.length, 100);
    assert.equal(start.initial_lines[0].message, "line 50");
    const dflt = await (await t.request(`${BASE}/stream/start`, json("POST", {}))).json();
    assert.equal(dflt.file, "host.log");
    await Deno.truncate(`${t.logDir}/big.log`, 1024 ** 3 + 1);
    const big = await t.request(`${BASE}/stream/start`, json("POST", { file: "big.log" }));
    assert.deepEqual([big.status, await big.json()], [413, {
      error: "Log file is too large to stream",
      code: "payload_too_large",
    }]);
    const missing = await t.request(`${BASE}/stream/start`, json("POST", { file: "no.log" }));
    assert.equal(missing.status, 404);
    const stop = await t.request(`${BASE}/stream/stop`, { method: "POST" });
    assert.deepEqual(await stop.json(), { status: "stopped" });
  } finally {
    await t.close();
  }
});

Deno.test("multi-stream starts up to 20 files, reports failures and stops some or all", async () => {
  const t = await startLogHost({ "a.log": "", "b.log": "", "c.log": "" });
  try {
    const res = await t.request(
      `${BASE}/stream/multi/start`,
      json("POST", { files: ["a.log", "b.log", "../x.log", "zz.log"] }),
    );
    const body = await res.json();
    assert.equal(body.status, "multi_started");
    assert.deepEqual(body.started, ["a.log", "b.log"]);
    assert.deepEqual(body.failed, [
      { file: "../x.log", error: "Invalid filename" },
      { file: "zz.log", error: "Log file not found" },
    ]);
    assert.equal(body.total_active, 2);
    const list = await (await t.request(`${BASE}/multi-stream`, { key: t.keys.STATUS })).json();
    assert.deepEqual(list, { active_streams: ["a.log", "b.log"], count: 2 });
    const tooMany = await t.request(
      `${BASE}/stream/multi/start`,
      json("POST", { files: Array(21).fill("a.log") }),
    );
    assert.deepEqual([tooMany.status, await tooMany.json()], [400, {
      error: "Too many files specified (max 20)",
      code: "bad_request",
    }]);
    const none = await t.request(`${BASE}/stream/multi/start`, json("POST", { files: [] }));
    assert.deepEqual([none.status, await none.json()], [400, {
      error: "No files specified",
      code: "bad_request",
    }]);
    const notList = await t.request(`${BASE}/stream/multi/stop`, json("POST", { files: "a.log" }));
    assert.deepEqual([notList.status, await notList.json()], [400, {
      error: "files must be a list",
      code: "bad_request",
    }]);
    const one =
      await (await t.request(`${BASE}/stream/multi/stop`, json("POST", { files: ["a.log", 5] })))
        .json();
    assert.deepEqual(one, { status: "multi_stopped", stopped: ["a.log"], total_remaining: 1 });
    await t.request(`${BASE}/stream/multi/start`, json("POST", { files: ["c.log"] }));
    const all =
      await (await t.request(`${BASE}/stream/multi/stop`, json("POST", { stop_all: true }))).json();
    assert.deepEqual(all, { status: "all_stopped", total_stopped: 2 });
  } finally {
    await t.close();
  }
});

Deno.test("alert endpoints count, list, clear and reset, with limit validation", async () => {
  const t = await startLogHost();
  try {
    await t.host.settings.updateMany({ logmonitor: { debug_mode: true } });
    const entries = await (await t.request(`${BASE}/debug/test-entries`, { method: "POST" }))
      .json();
    assert.deepEqual(entries, { status: "logged", entries: 6 });
    const counts = await (await t.request(`${BASE}/alerts`, { key: t.keys.STATUS })).json();
    assert.deepEqual(counts.counts, {
      DEBUG: 1,
      INFO: 1,
      WARNING: 1,
      ERROR: 1,
      CRITICAL: 1,
      UNKNOWN: 1,
    });
    const hist = await (await t.request(`${BASE}/alert-history?limit=2`, { key: t.keys.STATUS }))
      .json();
    assert.equal(hist.total, 6);
    assert.deepEqual(hist.history.map((h: { level: string }) => h.level), ["CRITICAL", "UNKNOWN"]);
    assert.deepEqual(Object.keys(hist.history[0]).sort(), [
      "level",
      "logger",
      "message",
      "source_file",
      "timestamp",
    ]);
    const bad = await t.request(`${BASE}/alert-history?limit=many`);
    assert.deepEqual([bad.status, await bad.json()], [400, {
      error: "limit must be an integer",
      code: "bad_request",
    }]);
    const capped = await (await t.request(`${BASE}/alert-history?limit=9999`)).json();
    assert.equal(capped.history.length, 6);
    assert.deepEqual(await (await t.request(`${BASE}/alerts/reset`, { method: "POST" })).json(), {
      status: "reset",
    });
    assert.equal((await (await t.request(`${BASE}/alerts`)).json()).counts.ERROR, 0);
    assert.equal(
      (await (await t.request(`${BASE}/alert-history`)).json()).total,
      6,
      "reset keeps history",
    );
    assert.deepEqual(
      await (await t.request(`${BASE}/alert-history/clear`, { method: "POST" })).json(),
      { status: "cleared" },
    );
    assert.equal((await (await t.request(`${BASE}/alert-history`)).json()).total, 0);
    const log = await Deno.readTextFile(`${t.logDir}/host.log`);
    assert.match(log, / - UNKNOWN - \[LogMonitor Debug Test\] \[UNKNOWN\]/);
  } finally {
    await t.close();
  }
});

Deno.test("GET /alerts/monitor/status shows the configuration and watched files", async () => {
  const t = await startLogHost({ "a.log": "", "b.log": "" });
  try {
    const s = await (await t.request(`${BASE}/alerts/monitor/status`)).json();
    assert.deepEqual(s, {
      enabled: true,
      mode: "selected",
      configured_logs: ["host.log"],
      active_logs: ["host.log"],
      active_count: 1,
    });
    await t.host.settings.updateMany({ logmonitor: { alerts_monitor_mode: "all" } });
    const all = await (async () => {
      for (let i = 0; i < 100; i++) {
        const v = await (await t.request(`${BASE}/alerts/monitor/status`)).json();
        if (v.active_count === 3) return v;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error("monitor not rebuilt");
    })();
    assert.deepEqual(all.active_logs, ["a.log", "b.log", "host.log"]);
  } finally {
    await t.close();
  }
});

Deno.test("debug endpoints are refused unless debug_mode is on", async () => {
  const t = await startLogHost();
  try {
    for (const path of ["/debug/frontend", "/debug/test-entries"]) {
      const res = await t.request(`${BASE}${path}`, json("POST", {}));
      assert.deepEqual([res.status, await res.json()], [403, {
        error: "Debug mode is disabled",
        code: "forbidden",
      }]);
    }
    await t.host.settings.updateMany({ logmonitor: { debug_mode: true } });
    const res = await t.request(
      `${BASE}/debug/frontend`,
      json("POST", { message: "  clicked  ", payload: { a: 1 } }),
    );
    assert.deepEqual(await res.json(), { status: "logged" });
    assert.match(
      await Deno.readTextFile(`${t.logDir}/host.log`),
      /Frontend debug from unknown: clicked \{"a":1\}/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("viewing needs STATUS (search, tail, download, export) and changing needs CONTROL", async () => {
  const t = await startLogHost({ "a.log": logLine("INFO", "x") });
  try {
    await t.host.settings.updateMany({ logmonitor: { debug_mode: true } });
    assert.equal((await t.request(`${BASE}/files`, { key: null })).status, 401);
    const viewing: [string, string, unknown?][] = [
      ["GET", "/files"],
      ["GET", "/search?file=a.log"],
      ["GET", "/download/a.log"],
      ["POST", "/export", { results: [], format: "csv" }],
      ["POST", "/stream/start", { file: "a.log" }],
      ["POST", "/stream/stop", {}],
      ["POST", "/stream/multi/start", { files: ["a.log"] }],
      ["POST", "/stream/multi/stop", { stop_all: true }],
      ["GET", "/multi-stream"],
      ["GET", "/alerts"],
      ["GET", "/alert-history"],
      ["GET", "/alerts/monitor/status"],
    ];
    const changing: [string, string, unknown?][] = [
      ["POST", "/alerts/reset", {}],
      ["POST", "/alert-history/clear", {}],
      ["POST", "/debug/frontend", { message: "m" }],
      ["POST", "/debug/test-entries", {}],
    ];
    const call = async (key: string, [method, path, body]: [string, string, unknown?]) => {
      const res = await t.request(`${BASE}${path}`, {
        ...(body === undefined ? { method } : json(method, body)),
        key,
      });
      await res.body?.cancel();
      return res.status;
    };
    for (const r of viewing) {
      assert.equal(await call(t.keys.STATUS, r), 200, `STATUS ${r[1]}`);
      assert.equal(await call(t.keys.CONTROL, r), 403, `CONTROL alone ${r[1]}`);
    }
    for (const r of changing) {
      assert.equal(await call(t.keys.STATUS, r), 403, `STATUS ${r[1]}`);
      assert.equal(await call(t.keys.CONTROL, r), 200, `CONTROL ${r[1]}`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("log monitor settings are validated with messages naming the setting", async () => {
  const t = await startLogHost();
  try {
    const cases: [Record<string, unknown>, string][] = [
      [{ search_page_size: 5 }, "search_page_size"],
      [{ default_log_file: "../x.log" }, "default_log_file"],
      [{ severity_triggers: ["WARNING", "LOUD"] }, "severity_triggers[1]"],
      [{ alerts_monitor_mode: "some" }, "alerts_monitor_mode"],
      [{ max_alert_history: 501 }, "max_alert_history"],
      [{ stream_poll_interval_s: 0 }, "stream_poll_interval_s"],
      [{ bogus: 1 }, "bogus"],
    ];
    for (const [values, name] of cases) {
      const res = await t.request(
        "/api/settings",
        json("POST", { plugins: { logmonitor: values } }),
      );
      assert.equal(res.status, 400, name);
      const body = await res.json();
      assert.ok(body.error.includes(`Setting '${name}' `), body.error);
      assert.equal(body.code, "invalid_setting");
    }
  } finally {
    await t.close();
  }
});

Deno.test("use_regex is refused with 403 while regex_search_enabled is off", async () => {
  const t = await startLogHost({ "a.log": logLine("INFO", "aaa") });
  try {
    const res = await t.request(`${BASE}/search?file=a.log&query=a%2B&use_regex=true`);
    assert.equal(res.status, 403);
    assert.match((await res.json()).error, /regex_search_enabled/);
    const plain = await t.request(`${BASE}/search?file=a.log&query=a%2B`);
    assert.deepEqual((await plain.json()).total, 0, "the same text as plain text still searches");
    await t.host.settings.updateMany({ logmonitor: { regex_search_enabled: true } });
    const on = await t.request(`${BASE}/search?file=a.log&query=a%2B&use_regex=true`);
    assert.equal((await on.json()).total, 1);
  } finally {
    await t.close();
  }
});

Deno.test("/debug/frontend cannot start a new line in the log or raise an alert", async () => {
  const t = await startLogHost();
  try {
    await t.host.settings.updateMany({ logmonitor: { debug_mode: true } });
    const before = await Deno.readTextFile(`${t.logDir}/host.log`).catch(() => "");
    const forged = "2024-01-01 00:00:00,000 - octoprint.server - CRITICAL - forged";
    const res = await t.request(
      `${BASE}/debug/frontend`,
      json("POST", {
        message: `clicked\n${forged}\r\n${forged}\u2028${forged}`,
        payload: { note: `x\u2028${forged}` },
      }),
    );
    assert.equal(res.status, 200);
    const added = (await Deno.readTextFile(`${t.logDir}/host.log`)).slice(before.length);
    assert.equal(added.split("\n").filter((l) => l !== "").length, 1, JSON.stringify(added));
    assert.ok(!/[\r\u2028\u2029]/.test(added));
    const search = await searchFile(
      `${t.logDir}/host.log`,
      parseSearchParams({ levels: ["CRITICAL"] }, 50),
    );
    assert.equal(search.total, 0, "no CRITICAL entry was forged");
    await new Promise((r) => setTimeout(r, 200)); // the alert monitor polls every 25 ms here
    const alerts = await (await t.request(`${BASE}/alerts`)).json();
    assert.equal(alerts.counts.CRITICAL, 0);
  } finally {
    await t.close();
  }
});
