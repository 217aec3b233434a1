import assert from "node:assert/strict";

/** An EventSource double. */
class FakeEventSource {
  static all: FakeEventSource[] = [];
  onmessage: ((m: { data: string }) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.all.push(this);
  }
  close() {
    this.closed = true;
  }
  emit(event: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
}

Object.defineProperty(globalThis, "EventSource", { value: FakeEventSource, configurable: true });
const { benchLive, followBenchEvents } = await import("../../components/bench_events.ts");

Deno.test("followBenchEvents() folds the stream into one signal shared by its followers", () => {
  const stopA = followBenchEvents("paused");
  const stopB = followBenchEvents("paused");
  assert.equal(FakeEventSource.all.length, 1, "one stream for the page");
  const es = FakeEventSource.all[0]!;
  assert.equal(es.url, "/api/benchmark/events");
  assert.equal(benchLive.value.status, "paused", "seeded with the server's status");
  es.emit({ type: "status", status: "running", model: "tiny", progress: { percent: 40 } });
  es.emit({ type: "job_start", models: ["tiny"], server: "http://127.0.0.1:1" });
  es.emit({ type: "run_end", key: "tiny", run: 1, ok: true, figures: { tokens_per_sec: 12.5 } });
  es.onmessage?.({ data: "{broken" });
  assert.equal(benchLive.value.status, "running");
  assert.equal(benchLive.value.model, "tiny");
  assert.equal(benchLive.value.percent, 40);
  assert.deepEqual(benchLive.value.runs, [{
    key: "tiny",
    label: "run 1",
    speed: 12.5,
    kind: "run",
  }]);
  assert.match(benchLive.value.output, /Benchmark of 1 model\(s\)[^]*12\.5 tok\/s/);
  stopA();
  assert.equal(es.closed, false);
  stopB();
  assert.equal(es.closed, true);
});
