import assert from "node:assert/strict";
import { json } from "../../lib/host/_helpers.ts";
import { parseSearchParams, searchFile } from "../../../plugins/logmonitor/mod.ts";
import { logLine, startLogHost } from "./_host.ts";

const BASE = "/plugin/logmonitor";

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

Deno.test("an ERROR export keeps the traceback of its entry", async () => {
  const t = await startLogHost({
    "app.log": logLine("INFO", "ok") + logLine("ERROR", "hook failed") +
      'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: bad\n' +
      logLine("INFO", "after"),
  });
  try {
    const found = await (await t.request(`${BASE}/search?file=app.log&levels=ERROR`)).json();
    assert.equal(found.total, 1);
    const csv = await t.request(
      `${BASE}/export`,
      json("POST", { results: found.results, format: "csv" }),
    );
    const body = await csv.text();
    assert.match(
      body,
      /"hook failed\nTraceback \(most recent call last\):\n {2}File ""x.py"", line 1\nValueError: bad"\r\n$/,
    );
    const txt = await t.request(
      `${BASE}/export`,
      json("POST", { results: found.results, format: "txt" }),
    );
    assert.match(await txt.text(), /ERROR - hook failed\nTraceback[^]*ValueError: bad$/);
  } finally {
    await t.close();
  }
});
