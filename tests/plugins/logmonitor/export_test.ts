import assert from "node:assert/strict";
import { renderExport } from "../../../plugins/logmonitor/mod.ts";
import { json } from "../../lib/host/_helpers.ts";
import { logLine, startLogHost } from "./_host.ts";

const BASE = "/plugin/logmonitor";

const item = {
  timestamp: "2024-01-01 12:00:00,123",
  logger: "a",
  level: "INFO",
  message: 'say "hi", ok',
};

Deno.test("renderExport() writes CSV with header, CRLF and minimal quoting", () => {
  const f = renderExport([item, { level: "ERROR" }], "CSV");
  assert.equal(
    f.body,
    'timestamp,logger,level,message\r\n2024-01-01 12:00:00,123,a,INFO,"say ""hi"", ok"\r\n,,ERROR,\r\n'
      .replace(
        "2024-01-01 12:00:00,123",
        '"2024-01-01 12:00:00,123"',
      ),
  );
  assert.equal(f.filename, "logmonitor_export.csv");
  assert.match(f.contentType, /^text\/csv/);
  assert.equal(renderExport([], "csv").body, "timestamp,logger,level,message\r\n");
});

Deno.test("renderExport() writes TXT lines without header or trailing newline", () => {
  const f = renderExport([item, item], "txt");
  assert.equal(
    f.body,
    `${item.timestamp} - a - INFO - say "hi", ok\n${item.timestamp} - a - INFO - say "hi", ok`,
  );
  assert.equal(f.filename, "logmonitor_export.txt");
  assert.equal(renderExport([], "txt").body, "");
  assert.equal(renderExport([item], undefined).filename, "logmonitor_export.csv");
});

Deno.test("renderExport() rejects more than 1000 entries, non-lists and unknown formats", () => {
  assert.equal(renderExport(Array(1000).fill(item), "txt").body.split("\n").length, 1000);
  assert.throws(() => renderExport(Array(1001).fill(item), "csv"), /at most 1000 entries/);
  assert.throws(() => renderExport("x", "csv"), /at most 1000 entries/);
  assert.throws(() => renderExport([], "pdf"), /Invalid format/);
  assert.throws(() => renderExport([3], "csv"), { name: "UsageError" });
});

Deno.test("renderExport() neutralises cells a spreadsheet would run as formulas", () => {
  const rows = ['=HYPERLINK("http://x")', "+1", "-2", "@SUM(A1)", "\tx", "\rx", "ok = 1"].map((
    message,
  ) => ({ timestamp: "t", logger: "=cmd", level: "INFO", message }));
  const body = renderExport(rows, "csv").body.split("\r\n").slice(1, -1);
  assert.deepEqual(body, [
    `t,'=cmd,INFO,"'=HYPERLINK(""http://x"")"`,
    "t,'=cmd,INFO,'+1",
    "t,'=cmd,INFO,'-2",
    "t,'=cmd,INFO,'@SUM(A1)",
    "t,'=cmd,INFO,'\tx",
    `t,'=cmd,INFO,"'\rx"`,
    "t,'=cmd,INFO,ok = 1",
  ]);
  assert.equal(
    renderExport(rows.slice(0, 1), "txt").body,
    't - =cmd - INFO - =HYPERLINK("http://x")',
  );
});

Deno.test("renderExport() neutralises a formula after leading blanks and line breaks", () => {
  const rows = [" =1+1", "\n=1+1", "  \n+cmd", "\u00a0@x", " ok"].map((message) => ({
    timestamp: "t",
    logger: "l",
    level: "INFO",
    message,
  }));
  const body = renderExport(rows, "csv").body.split("\r\n").slice(1, -1);
  assert.deepEqual(body, [
    "t,l,INFO,' =1+1",
    `t,l,INFO,"'\n=1+1"`,
    `t,l,INFO,"'  \n+cmd"`,
    "t,l,INFO,'\u00a0@x",
    "t,l,INFO, ok",
  ]);
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
