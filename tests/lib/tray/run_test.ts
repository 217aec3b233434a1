import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError, UnavailableError } from "../../../lib/error.ts";
import { type MenuModel, parseTrayArgs, runTray, type TrayDeps } from "../../../lib/tray/mod.ts";
import { FakeTray } from "./_fakes.ts";
import { startFakeDashboard } from "./_fake_dashboard.ts";
import { waitFor } from "../../_helpers.ts";

function deps(env: Record<string, string>, factoryResult: () => Promise<FakeTray>) {
  const out: string[] = [];
  const err: string[] = [];
  const logs: string[] = [];
  const shown: MenuModel[] = [];
  const d: TrayDeps = {
    env: (n) => env[n],
    factory: () => async (menu) => {
      shown.push(menu);
      return await factoryResult();
    },
    openUrl: () => Promise.resolve(),
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    sink: (_l, line) => logs.push(line),
  };
  return { d, out, err, logs, shown };
}

Deno.test("parseTrayArgs() reads --url, --token, --timeout and --debug", () => {
  const opts = parseTrayArgs(
    ["--url=http://127.0.0.1:9000/", "--debug", "--timeout", "2.5"],
    (n) => (n === "LOCALBENCH_DASHBOARD_TOKEN" ? "tok" : undefined),
  );
  assert.deepEqual(opts, {
    help: false,
    url: "http://127.0.0.1:9000",
    debug: true,
    token: "tok",
    timeoutMs: 2500,
    exitWithStdin: false,
  });
  assert.equal(parseTrayArgs(["--exit-with-stdin"]).exitWithStdin, true);
  assert.equal(parseTrayArgs([]).url, "http://localhost:1234");
  assert.equal(parseTrayArgs(["--token", "x"]).token, "x");
  assert.equal(parseTrayArgs(["-d", "-h"]).help, true);
});

Deno.test("parseTrayArgs() drops the -- that `deno task tray -- opts` passes first", () => {
  assert.equal(parseTrayArgs(["--", "--url", "http://127.0.0.1:9"]).url, "http://127.0.0.1:9");
  assert.equal(parseTrayArgs(["--", "--help"]).help, true);
});

Deno.test("parseTrayArgs() refuses unknown flags, bad URLs and bad timeouts", () => {
  for (
    const argv of [["--nope"], ["--url", "ftp://x"], ["--url", "::"], ["--url"], ["--timeout", "0"]]
  ) {
    assert.throws(
      () => parseTrayArgs(argv),
      (e: unknown) => e instanceof AppError && statusOf(e) === 400,
    );
  }
});

Deno.test("runTray() drives a live dashboard with its token until Quit", async () => {
  const dash = startFakeDashboard({ token: "t0k", status: "running" });
  const tray = new FakeTray();
  const { d, shown } = deps({ LOCALBENCH_DASHBOARD_TOKEN: "t0k" }, () => Promise.resolve(tray));
  const exit = runTray(["--url", dash.url], d);
  await waitFor(() => shown.length > 0);
  assert.equal(shown[0]!.icon, "green");
  tray.click("pause");
  await waitFor(() => tray.last?.icon === "yellow");
  assert.equal(dash.status, "paused");
  tray.click("quit");
  assert.equal(await exit, 0);
  await dash.shutdown;
  await dash.finished;
  const posts = dash.requests.filter((r) => r.method === "POST");
  assert.deepEqual(posts.map((r) => r.path), ["/api/benchmark/pause", "/api/system/shutdown"]);
  assert.ok(posts.every((r) => r.authorization === "Bearer t0k" && r.origin === null));
});

Deno.test("runTray() shows red for an unreachable dashboard", async () => {
  const dash = startFakeDashboard();
  const url = dash.url;
  await dash.close();
  const tray = new FakeTray();
  const { d, shown } = deps({}, () => Promise.resolve(tray));
  const exit = runTray(["--url", url], d);
  await waitFor(() => shown.length > 0);
  assert.equal(shown[0]!.icon, "red");
  tray.click("quit");
  assert.equal(await exit, 0);
});

Deno.test("runTray() exits 1 with the message when no tray can be shown", async () => {
  const { d, err } = deps(
    {},
    () => Promise.reject(new UnavailableError("Cannot show the tray: no display")),
  );
  assert.equal(await runTray(["--url", "http://127.0.0.1:9", "--timeout", "1"], d), 1);
  assert.match(err.join(""), /Cannot show the tray: no display/);
});

Deno.test("runTray() prints help (exit 0) and refuses bad arguments (exit 2)", async () => {
  const help = deps({}, () => Promise.reject(new Error("not used")));
  assert.equal(await runTray(["--help"], help.d), 0);
  assert.match(help.out.join(""), /Usage: deno task tray/);
  const bad = deps({}, () => Promise.reject(new Error("not used")));
  assert.equal(await runTray(["--frobnicate"], bad.d), 2);
  assert.match(bad.err.join(""), /unknown argument '--frobnicate'/);
});

Deno.test("runTray() ends when its standard input closes (--exit-with-stdin)", async () => {
  const dash = startFakeDashboard({ status: "running" });
  const tray = new FakeTray();
  const { d, shown } = deps({}, () => Promise.resolve(tray));
  let closeStdin!: () => void;
  d.stdinClosed = () => new Promise<void>((r) => (closeStdin = r));
  const exit = runTray(["--url", dash.url, "--exit-with-stdin"], d);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(shown[0]!.icon, "green");
  closeStdin();
  assert.equal(await exit, 0);
  assert.ok(tray.closeCalls >= 1);
  await dash.close();
});

Deno.test("runTray() reuses a tray already watching the URL and releases its own claim", async () => {
  const dash = startFakeDashboard();
  const tray = new FakeTray();
  const { d, out, shown } = deps({}, () => Promise.resolve(tray));
  d.claim = () => Promise.resolve({ owner: false, pid: 4242 });
  assert.equal(await runTray(["--url", dash.url], d), 0);
  assert.deepEqual(shown, [], "no second icon");
  assert.match(out.join(""), /A tray already watches .* \(process 4242\); it stays, this one ends/);
  let released = 0;
  d.claim = () => Promise.resolve({ owner: true, release: () => Promise.resolve(void released++) });
  const exit = runTray(["--url", dash.url], d);
  await new Promise((r) => setTimeout(r, 50));
  tray.click("quit");
  assert.equal(await exit, 0);
  assert.equal(released, 1);
  await dash.close();
});
