import assert from "node:assert/strict";
import { parseHubServerArgs } from "./powerhub_server.ts";
import { waitFor } from "../_helpers.ts";

interface RawClient {
  ws: WebSocket;
  frames: unknown[];
  opened: Promise<boolean>;
  closed: Promise<void>;
}

function connect(url: string): RawClient {
  const ws = new WebSocket(url);
  const frames: unknown[] = [];
  ws.onmessage = (e) => frames.push(JSON.parse(String(e.data)));
  const opened = new Promise<boolean>((resolve) => {
    ws.addEventListener("open", () => resolve(true));
    ws.addEventListener("close", () => resolve(false));
  });
  const closed = new Promise<void>((resolve) => ws.addEventListener("close", () => resolve()));
  return { ws, frames, opened, closed };
}

async function closeClient(client: RawClient): Promise<void> {
  if (client.ws.readyState === WebSocket.OPEN) client.ws.close();
  await client.closed;
}

Deno.test("parseHubServerArgs() reads port, path and delay and skips the task's --", () => {
  assert.deepEqual(parseHubServerArgs(["--", "--port", "8765"]), {
    port: 8765,
    path: "/ws",
    delayMs: 0,
  });
  assert.deepEqual(parseHubServerArgs(["--port=0", "--path", "/hub", "--delay-ms", "20"]), {
    port: 0,
    path: "/hub",
    delayMs: 20,
  });
  assert.throws(() => parseHubServerArgs(["--port", "70000"]), RangeError);
  assert.throws(() => parseHubServerArgs(["--path", "ws"]), RangeError);
});

Deno.test("the standalone hub server prints its address and serves the protocol", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      new URL("./powerhub_server.ts", import.meta.url).pathname,
      "--",
      "--port",
      "0",
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  const url = text.match(/^listening on (ws:\/\/127\.0\.0\.1:\d+\/ws)$/m)?.[1];
  assert.ok(url, `unexpected output: ${text}`);
  const client = connect(url);
  await waitFor(() => client.frames.length === 1, "the snapshot");
  await closeClient(client);
  child.kill("SIGTERM");
  const status = await child.status;
  clearTimeout(timer);
  await reader.cancel();
  assert.equal(status.code, 0);
});
