import assert from "node:assert/strict";
import { join } from "node:path";
import type { HostOptions } from "../../../../lib/host/mod.ts";
import { FakeClock, json, startTestHost, type TestHost } from "../_helpers.ts";
import { JobPrinter } from "./_job_printer.ts";

const encoder = new TextEncoder();
const BOUNDARY = "----lbTestBoundary";

/** A host whose job printer prints from its uploads folder. */
async function setUp(options: Partial<HostOptions> = {}) {
  const clock = new FakeClock();
  const printer = new JobPrinter(clock);
  const t = await startTestHost({ clock, printer, ...options });
  printer.uploads = t.host.uploads;
  const entries = async () => {
    try {
      return (await Array.fromAsync(Deno.readDir(t.host.uploads.dir))).map((e) => e.name).sort();
    } catch {
      return [];
    }
  };
  return Object.assign(t, { printer, entries, [Symbol.asyncDispose]: () => t.close() });
}

/** POST /api/files/local of a form with `file` (name, bytes) and fields. */
function upload(
  t: TestHost,
  name: string,
  content: string | Uint8Array<ArrayBuffer>,
  fields: Record<string, string> = {},
  key?: string,
) {
  const form = new FormData();
  form.append("file", new File([content], name));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return t.request("/api/files/local", { method: "POST", body: form, key });
}

/** A hand-written multipart body (raw part headers), as a stream when `cut` ends it early. */
function rawForm(parts: string[], options: { end?: boolean } = {}): RequestInit {
  const body = parts.map((p) => `--${BOUNDARY}\r\n${p}\r\n`).join("") +
    (options.end === false ? "" : `--${BOUNDARY}--\r\n`);
  return {
    method: "POST",
    headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  };
}

function filePart(filename: string, content: string): string {
  return `Content-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n${content}`;
}

Deno.test("an uploaded file is stored, listed, described, downloaded and deleted", async () => {
  await using t = await setUp();
  const res = await upload(t, "benchy part.gcode", "G28\nG1 X1\n");
  assert.equal(res.status, 201);
  const resource = "http://localhost/api/files/local/benchy%20part.gcode";
  assert.equal(res.headers.get("Location"), resource);
  assert.deepEqual(await res.json(), {
    done: true,
    files: {
      local: {
        name: "benchy part.gcode",
        path: "benchy part.gcode",
        origin: "local",
        refs: { resource, download: `${resource}/download` },
      },
    },
    effectiveSelect: false,
    effectivePrint: false,
  });
  assert.equal(
    await Deno.readTextFile(join(t.host.uploads.dir, "benchy part.gcode")),
    "G28\nG1 X1\n",
  );
  for (const path of ["/api/files", "/api/files/local"]) {
    const list = await (await t.request(path, { key: t.keys.STATUS })).json();
    assert.equal(list.files.length, 1);
    const [file] = list.files;
    assert.deepEqual(
      [file.name, file.type, file.typePath, file.size, file.origin, file.refs.resource],
      ["benchy part.gcode", "machinecode", ["machinecode", "gcode"], 10, "local", resource],
    );
    assert.equal(typeof file.date, "number");
    assert.ok(list.free === null || list.free > 0);
    assert.ok(list.total === null || list.total > 0);
  }
  const info = await t.request("/api/files/local/benchy%20part.gcode", { key: t.keys.STATUS });
  assert.equal((await info.json()).size, 10);
  const download = await t.request("/api/files/local/benchy%20part.gcode/download", {
    key: t.keys.STATUS,
  });
  assert.equal(
    download.headers.get("Content-Disposition"),
    'attachment; filename="benchy part.gcode"',
  );
  assert.equal(await download.text(), "G28\nG1 X1\n");
  const del = await t.request("/api/files/local/benchy%20part.gcode", {
    method: "DELETE",
    key: t.keys.CONTROL,
  });
  assert.equal(del.status, 204);
  assert.deepEqual(await t.entries(), []);
  const again = await t.request("/api/files/local/benchy%20part.gcode", { method: "DELETE" });
  assert.equal(again.status, 404);
});

Deno.test("files routes need STATUS to read and CONTROL to upload, select and delete", async () => {
  await using t = await setUp();
  assert.equal((await upload(t, "a.gcode", "G28\n", {}, t.keys.CONTROL)).status, 201);
  assert.equal((await t.request("/api/files", { key: null })).status, 401);
  assert.equal((await upload(t, "b.gcode", "G28\n", {}, t.keys.STATUS)).status, 403);
  const select = json("POST", { command: "select" });
  assert.equal(
    (await t.request("/api/files/local/a.gcode", { ...select, key: t.keys.STATUS })).status,
    403,
  );
  const del = { method: "DELETE", key: t.keys.STATUS };
  assert.equal((await t.request("/api/files/local/a.gcode", del)).status, 403);
  assert.deepEqual(await t.entries(), ["a.gcode"]);
});

Deno.test("an upload with select or print selects or starts the file", async () => {
  await using t = await setUp();
  const res = await upload(t, "a.gcode", "G28\n", { select: "true" });
  assert.equal(res.status, 201);
  assert.equal((await res.json()).effectiveSelect, true);
  const job = await (await t.request("/api/job")).json();
  assert.deepEqual(job.job.file, { name: "a.gcode", path: "a.gcode", size: 4, origin: "local" });
  assert.equal(job.state, "Operational");
  const printed = await upload(t, "b.gcode", "G28\nG1 X5 ; go\n", { print: "true" });
  assert.equal(printed.status, 201);
  await t.printer.runner.settled();
  assert.deepEqual(t.printer.driver.sent, ["G28", "G1 X5"]);
  assert.equal(t.printer.job().file?.name, "b.gcode");
});

Deno.test("select through the file's command prints on request and refuses when not operational", async () => {
  await using t = await setUp();
  await upload(t, "a.gcode", "G28\n");
  const select = (body: unknown) => t.request("/api/files/local/a.gcode", json("POST", body));
  assert.equal((await select({ command: "select" })).status, 204);
  assert.equal(t.printer.job().file?.name, "a.gcode");
  assert.equal((await select({ command: "select", print: true })).status, 204);
  await t.printer.runner.settled();
  assert.deepEqual(t.printer.driver.sent, ["G28"]);
  assert.equal((await select({ command: "slice" })).status, 400);
  assert.equal((await select({ command: "select", print: "yes" })).status, 400);
  const missing = await t.request(
    "/api/files/local/none.gcode",
    json("POST", { command: "select" }),
  );
  assert.equal(missing.status, 404);
  t.printer.online = false;
  const offline = await select({ command: "select" });
  assert.equal(offline.status, 409);
  assert.match((await offline.json()).error, /Cannot select a.gcode: the printer is Offline/);
});

Deno.test("the file being printed is neither deleted, replaced nor selected away (409)", async () => {
  await using t = await setUp();
  await upload(t, "a.gcode", "G28\nG1 X1\n");
  await upload(t, "b.gcode", "G28\n");
  let release = () => {};
  t.printer.driver.onSend = () => new Promise<string[]>((r) => release = () => r(["ok"]));
  await t.printer.startJob("a.gcode");
  const del = await t.request("/api/files/local/a.gcode", { method: "DELETE" });
  assert.equal(del.status, 409);
  assert.match((await del.json()).error, /Cannot delete a.gcode: it is being printed/);
  const replace = await upload(t, "a.gcode", "M84\n");
  assert.equal(replace.status, 409);
  assert.equal(await Deno.readTextFile(join(t.host.uploads.dir, "a.gcode")), "G28\nG1 X1\n");
  assert.deepEqual(await t.entries(), ["a.gcode", "b.gcode"], "no temporary file left");
  const select = await t.request("/api/files/local/b.gcode", json("POST", { command: "select" }));
  assert.equal(select.status, 409);
  const selectOnUpload = await upload(t, "c.gcode", "G28\n", { print: "true" });
  assert.equal(selectOnUpload.status, 409);
  assert.match((await selectOnUpload.json()).error, /Stored c.gcode, but: Cannot print c.gcode/);
  assert.equal((await t.request("/api/files/local/b.gcode", { method: "DELETE" })).status, 204);
  t.printer.driver.onSend = () => {};
  release();
  await t.printer.runner.settled();
  assert.equal((await t.request("/api/files/local/a.gcode", { method: "DELETE" })).status, 204);
});

Deno.test("upload names with a path, NUL, a leading dot or another extension are refused", async () => {
  await using t = await setUp();
  const names = [
    "../escape.gcode",
    "..%2Fescape.gcode",
    "sub/dir.gcode",
    "back\\slash.gcode",
    "nul\0.gcode",
    ".hidden.gcode",
    "..",
    "script.sh",
    "noextension",
    "",
  ];
  for (const name of names) {
    const res = await t.request("/api/files/local", rawForm([filePart(name, "G28\n")]));
    assert.equal(res.status, 400, JSON.stringify(name));
  }
  assert.deepEqual(await t.entries(), []);
  assert.equal((await t.request("/api/files")).status, 200);
});

Deno.test("file names in the path are checked: traversal, NUL and hidden names are refused", async () => {
  await using t = await setUp();
  await upload(t, "a.gcode", "G28\n");
  await Deno.writeTextFile(join(t.dir, "host", "secret.gcode"), "secret");
  const paths = [
    ["/api/files/local/..%2Fsecret.gcode", 400],
    ["/api/files/local/%2e%2e%2Fsecret.gcode", 400],
    ["/api/files/local/a.gcode%00", 400],
    ["/api/files/local/.hidden.gcode", 400],
    ["/api/files/local/a.txt", 400],
    ["/api/files/local/missing.gcode", 404],
  ] as const;
  for (const [path, status] of paths) {
    for (const method of ["GET", "DELETE"]) {
      const res = await t.request(path, { method });
      assert.equal(res.status, status, `${method} ${path}`);
    }
    const download = await t.request(`${path}/download`);
    assert.equal(download.status, status, `${path}/download`);
  }
  assert.equal(await Deno.readTextFile(join(t.dir, "host", "secret.gcode")), "secret");
});

Deno.test("a form without a file part, or no form at all, is a 400", async () => {
  await using t = await setUp();
  const fieldOnly = rawForm(['Content-Disposition: form-data; name="select"\r\n\r\ntrue']);
  const other = rawForm([filePart("a.gcode", "G28\n").replace('name="file"', 'name="upload"')]);
  const cases: [string, RequestInit][] = [
    ["fields only", fieldOnly],
    ["a file under another name", other],
    ["JSON", json("POST", { file: "G28" })],
    ["no boundary", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data" },
      body: "x",
    }],
    ["no body", { method: "POST" }],
  ];
  for (const [what, init] of cases) {
    const res = await t.request("/api/files/local", init);
    assert.equal(res.status, 400, what);
  }
  assert.deepEqual(await t.entries(), []);
});

Deno.test("an upload that stops midway leaves no file behind", async () => {
  await using t = await setUp();
  const head = encoder.encode(`--${BOUNDARY}\r\n${filePart("cut.gcode", "G28\n".repeat(10_000))}`);
  const broken = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(head);
      c.error(new TypeError("connection reset by peer"));
    },
  });
  const headers = { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` };
  const reset = await t.request("/api/files/local", { method: "POST", headers, body: broken });
  assert.equal(reset.status, 400);
  assert.match((await reset.json()).error, /ended before it was complete/);
  const unfinished = await t.request(
    "/api/files/local",
    rawForm([filePart("cut.gcode", "G28\n")], { end: false }),
  );
  assert.equal(unfinished.status, 400);
  assert.deepEqual(await t.entries(), [], "neither the file nor its temporary file");
});

Deno.test("an upload over the cap is a 413 with nothing left; the 8 MiB cap of other bodies stays", async () => {
  await using t = await setUp({ maxUploadBytes: 10 * 1024 * 1024 });
  // Larger than the web app's 8 MiB cap, within the uploads folder's own.
  const nine = new Uint8Array(9 * 1024 * 1024).fill(0x47);
  assert.equal((await upload(t, "nine.gcode", nine)).status, 201);
  const eleven = new Uint8Array(11 * 1024 * 1024).fill(0x47);
  const over = await upload(t, "eleven.gcode", eleven);
  assert.equal(over.status, 413);
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(encoder.encode(`--${BOUNDARY}\r\n${filePart("big.gcode", "")}`)),
    pull: (c) => void (pulled++, c.enqueue(new Uint8Array(1024 * 1024).fill(0x47))),
  });
  const headers = { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` };
  const streamed = await t.request("/api/files/local", { method: "POST", headers, body: endless });
  assert.equal(streamed.status, 413);
  assert.ok(pulled < 20, `${pulled} MiB read of an endless upload`);
  const declared = await t.request("/api/files/local", {
    ...rawForm([filePart("big.gcode", "G28\n")]),
    headers: {
      "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
      "Content-Length": String(1024 ** 4),
    },
  });
  assert.equal(declared.status, 413);
  assert.deepEqual(await t.entries(), ["nine.gcode"]);
  // Only POST on the upload path is exempt from the web app's cap.
  const others = [
    ["POST", "/api/files/local/nine.gcode"],
    ["POST", "/api/job"],
    ["PUT", "/api/files/local"],
  ];
  for (const [method, path] of others) {
    const res = await t.request(path!, { method, headers, body: nine });
    assert.equal(res.status, 413, `${method} ${path}`);
  }
});
