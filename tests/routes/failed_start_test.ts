import assert from "node:assert/strict";
import { post, type TestDashboard, testDashboard } from "./_dashboard.ts";

/** A dashboard whose model server address has nothing listening. */
async function noModelServer(): Promise<TestDashboard> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return await testDashboard({
    baseArgs: ["--backend", "rest", "--base-url", `http://127.0.0.1:${port}`],
  });
}

type Event = { type: string; [k: string]: unknown };

/** Reads server-sent events until `until` says stop (or `ms` pass); returns them in order. */
async function readEvents(
  res: Response,
  until: (seen: Event[]) => boolean,
  ms = 10_000,
): Promise<Event[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const seen: Event[] = [];
  let buffer = "";
  const end = Date.now() + ms;
  try {
    while (!until(seen) && Date.now() < end) {
      const next = await Promise.race([
        reader.read(),
        new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, end - Date.now()))),
      ]);
      if (next === null || next.done) break;
      buffer += next.value;
      const blocks = buffer.split("\n\n");
      buffer = blocks.pop()!;
      for (const b of blocks) {
        const data = /^data: (.*)$/m.exec(b);
        if (data) seen.push(JSON.parse(data[1]!));
      }
    }
  } finally {
    await reader.cancel();
  }
  return seen;
}

const statuses = (events: Event[]) =>
  events.filter((e) => e.type === "status").map((e) => e.status);

Deno.test("a start without a model server ends idle with an error event, and the stream says so", async () => {
  await using d = await noModelServer();
  const stream = await d.request("/api/benchmark/events");
  const reading = readEvents(stream, (seen) => statuses(seen).slice(1).includes("idle"));
  const res = await post(d, "/api/benchmark/start", {});
  assert.equal(res.status, 503);
  const error = (await res.json()).error as string;
  const events = await reading;
  // The snapshot on connect, "running" once the arguments were valid, then the closing "idle".
  assert.deepEqual(statuses(events), ["idle", "running", "idle"]);
  const log = events.find((e) => e.type === "log")!;
  assert.equal(log.level, "error");
  assert.equal(log.message, `Benchmark not started: ${error}`);
  const last = events.at(-1)!;
  assert.equal(last.type, "status");
  assert.equal((last.outcome as { outcome: string; error: string }).outcome, "failed");
  assert.equal((last.outcome as { error: string }).error, error);

  const status = await (await d.request("/api/status")).json();
  assert.equal(status.status, "idle");
  assert.equal(status.running, false);
  assert.equal(status.outcome.outcome, "failed");
  assert.equal(status.outcome.error, error);
  // Nothing is left half-started: Stop has nothing to stop, Start can be tried again.
  assert.equal((await post(d, "/api/benchmark/stop")).status, 409);
  assert.equal((await post(d, "/api/benchmark/start", {})).status, 503);
});

Deno.test("a page loaded after a failed start replays no stale 'running'", async () => {
  await using d = await noModelServer();
  assert.equal((await post(d, "/api/benchmark/start", {})).status, 503);
  // A reload: a new stream replays the backlog after the current snapshot.
  const events = await readEvents(
    await d.request("/api/benchmark/events"),
    (seen) => seen.filter((e) => e.type === "status").length >= 3,
  );
  assert.deepEqual(statuses(events), ["idle", "running", "idle"]);
  assert.equal(events.at(-1)!.status, "idle", "the newest state replayed is idle");
  // Reconnecting after the last event seen replays nothing more.
  const lastId = await (async () => {
    const res = await d.request("/api/benchmark/events");
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!/\n\n[\s\S]*\n\n[\s\S]*\n\n[\s\S]*\n\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    await reader.cancel();
    return Math.max(...[...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));
  })();
  const after = await readEvents(
    await d.request("/api/benchmark/events", { headers: { "Last-Event-ID": String(lastId) } }),
    (seen) => seen.length >= 1,
  );
  assert.deepEqual(statuses(after), ["idle"], "only the snapshot");
});

Deno.test("bad arguments are refused without any event: the status never left idle", async () => {
  await using d = await noModelServer();
  const stream = await d.request("/api/benchmark/events");
  const res = await post(d, "/api/benchmark/start", { runs: "many" });
  assert.equal(res.status, 400);
  const events = await readEvents(stream, () => false, 300);
  assert.deepEqual(statuses(events), ["idle"]);
  assert.equal((await (await d.request("/api/status")).json()).outcome, null);
});
