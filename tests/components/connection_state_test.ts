import assert from "node:assert/strict";
import { FakeSocket, installPushGlobals } from "../doubles/browser_push.ts";
import type { ConnectionInfo } from "../../lib/shared/printer_connection.ts";

installPushGlobals("127.0.0.1:8080");
const {
  codeParts,
  connectBody,
  createConnectionState,
  initialForm,
  OTHER_PORT,
  stateBadge,
} = await import("../../components/connection_state.ts");

function info(
  current: Partial<ConnectionInfo["current"]> = {},
  options: Partial<ConnectionInfo["options"]> = {},
): ConnectionInfo {
  return {
    current: {
      state: "Offline",
      stateId: "OFFLINE",
      port: null,
      baudrate: null,
      printerProfile: "_default",
      error: null,
      firmware: null,
      ...current,
    },
    options: {
      ports: ["/dev/ttyUSB0", "VIRTUAL"],
      baudrates: [250000, 115200],
      printerProfiles: [{ id: "_default", name: "Default" }],
      portPreference: null,
      baudratePreference: null,
      printerProfilePreference: "_default",
      autoconnect: false,
      ...options,
    },
  };
}

Deno.test("initialForm() picks the port in use, else the stored one, else the first offered", () => {
  const used = initialForm(info({ port: "VIRTUAL", baudrate: 115200, stateId: "OPERATIONAL" }));
  assert.deepEqual([used.port, used.otherPort, used.baudrate], ["VIRTUAL", "", "115200"]);
  const stored = initialForm(
    info({}, { portPreference: "/dev/pts/7", baudratePreference: 250000 }),
  );
  assert.deepEqual([stored.port, stored.otherPort, stored.baudrate], [
    OTHER_PORT,
    "/dev/pts/7",
    "250000",
  ]);
  const first = initialForm(info({}, { autoconnect: true }));
  assert.deepEqual([first.port, first.otherPort, first.baudrate], ["/dev/ttyUSB0", "", ""]);
  assert.equal(first.autoconnect, true);
  assert.equal(first.save, false);
});

Deno.test("connectBody() sends the typed path, the rate unless Auto, and autoconnect only when it changes", () => {
  const form = {
    port: OTHER_PORT,
    otherPort: " /dev/pts/3 ",
    baudrate: "",
    save: true,
    autoconnect: true,
  };
  assert.deepEqual(connectBody(form, true), { command: "connect", port: "/dev/pts/3", save: true });
  assert.deepEqual(connectBody({ ...form, port: "VIRTUAL", baudrate: "250000" }, false), {
    command: "connect",
    port: "VIRTUAL",
    baudrate: 250000,
    save: true,
    autoconnect: true,
  });
});

Deno.test("stateBadge() shows the state's text, an error's message left to the alert", () => {
  assert.deepEqual(stateBadge(info({ state: "Operational", stateId: "OPERATIONAL" }).current), {
    text: "Operational",
    tone: "running",
  });
  assert.deepEqual(stateBadge(info({ state: "Connecting", stateId: "CONNECTING" }).current), {
    text: "Connecting",
    tone: "paused",
  });
  assert.deepEqual(
    stateBadge(info({ state: "Error: Printer halted", stateId: "ERROR", error: "x" }).current),
    { text: "Error", tone: "failed" },
  );
  assert.deepEqual(
    stateBadge(info({ state: "Offline after error", error: "No serial port" }).current),
    { text: "Offline after error", tone: "failed" },
  );
  assert.deepEqual(stateBadge(info().current), { text: "Offline", tone: "" });
});

Deno.test("codeParts() marks the backtick-quoted parts of a message as code", () => {
  assert.deepEqual(codeParts("add your user to the `dialout` group"), [
    { text: "add your user to the ", code: false },
    { text: "dialout", code: true },
    { text: " group", code: false },
  ]);
  assert.deepEqual(codeParts("plain"), [{ text: "plain", code: false }]);
});

/** Replaces fetch with `answer` while in use; records each request. */
function stubFetch(answer: (url: string, body: unknown) => Response) {
  const real = globalThis.fetch;
  const calls: { url: string; body: unknown; csrf: string | null }[] = [];
  globalThis.fetch = ((url: string, init: RequestInit = {}) => {
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, body, csrf: new Headers(init.headers).get("X-CSRF-Token") });
    return Promise.resolve(answer(url, body));
  }) as typeof fetch;
  return { calls, [Symbol.dispose]: () => globalThis.fetch = real };
}

const props = (i = info()) => ({
  info: i,
  lines: [],
  canConnect: true,
  canControl: true,
  csrfToken: "tok",
});

Deno.test("a refused connect shows the host's message once, and the connection is read again", async () => {
  const failed = info({ state: "Offline after error", error: "No serial port at /dev/x." });
  using f = stubFetch((_url, body) =>
    body === undefined
      ? Response.json(failed)
      : Response.json({ error: "No serial port at /dev/x." }, { status: 404 })
  );
  const s = createConnectionState(props());
  s.form.value = { ...s.form.value, port: OTHER_PORT, otherPort: "/dev/x" };
  const done = s.connect();
  assert.equal(s.busy.value, true);
  await done;
  assert.equal(s.busy.value, false);
  assert.deepEqual(f.calls.map((c) => [c.url, c.csrf]), [
    ["/api/connection", "tok"],
    ["/api/connection", null],
  ]);
  assert.equal(s.actionError.value, "No serial port at /dev/x.");
  assert.equal(s.info.value.current.error, s.actionError.value, "the alert shows it already");
});

Deno.test("a command is sent as typed, the box emptied, and a refusal shown with the command", async () => {
  using f = stubFetch(() =>
    Response.json({ error: "Cannot talk to the printer: it is not connected" }, { status: 409 })
  );
  const s = createConnectionState(props());
  s.command.value = "  M105 ";
  await s.send();
  assert.deepEqual(f.calls[0]!.body, { commands: ["M105"] });
  assert.equal(s.command.value, "");
  assert.equal(s.commandError.value, "M105: Cannot talk to the printer: it is not connected");
  s.command.value = " ";
  await s.send();
  assert.equal(f.calls.length, 1, "nothing sent for an empty box");
});

Deno.test("the page follows the printer on the push socket and reads it all again when it opens", async () => {
  FakeSocket.all = [];
  const fresh = info({ state: "Operational", stateId: "OPERATIONAL", port: "VIRTUAL" });
  const line = { time: 1, direction: "sent" as const, text: "M105" };
  using f = stubFetch((url) =>
    Response.json(url === "/api/connection" ? fresh : { lines: [line] })
  );
  const s = createConnectionState(props());
  const stop = s.follow();
  const ws = FakeSocket.all[0]!;
  ws.onopen?.();
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(f.calls.map((c) => c.url).sort(), ["/api/connection", "/api/printer/terminal"]);
  assert.equal(s.phase.value, "connected");
  assert.deepEqual(s.lines.value, [line]);
  const answer = { time: 2, direction: "received" as const, text: "ok T:21" };
  ws.push("host", { type: "reapplying", needs: [] });
  ws.push("host", {
    type: "printer",
    connection: { ...fresh.current, state: "Offline", stateId: "OFFLINE", port: null },
    lines: [answer],
    skipped: 0,
  });
  assert.equal(s.phase.value, "offline");
  assert.equal(s.info.value.options.ports.length, 2, "the choices stay");
  assert.deepEqual(s.lines.value, [line, answer]);
  stop();
  assert.equal(ws.closed, true);
});
