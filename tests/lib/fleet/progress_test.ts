import assert from "node:assert/strict";
import {
  type FleetProgress,
  progressPayload,
  ProgressPublisher,
} from "../../../lib/fleet/progress.ts";
import type { SqlClient } from "../../../lib/fleet/registry.ts";

const progress = (n: number, type = "status"): FleetProgress => ({
  agent: "a",
  job: "j",
  event: { type, n },
});

/** A database whose every query takes a random few milliseconds, recording the payloads sent. */
function slowSql(sent: string[], fail = () => false): SqlClient {
  return {
    async query(_text, params) {
      await new Promise((r) => setTimeout(r, Math.random() * 5));
      if (fail()) throw new Error("connection lost");
      sent.push(String(params?.[1]));
      return { rows: [] };
    },
  };
}

Deno.test("ProgressPublisher sends an agent's events in the order they happened", async () => {
  const sent: string[] = [];
  const p = new ProgressPublisher(slowSql(sent));
  for (let n = 0; n < 30; n++) p.publish(progress(n));
  await p.flushed();
  assert.deepEqual(sent.map((t) => JSON.parse(t).event.n), [...Array(30).keys()]);
  assert.equal(p.dropped, 0);
});

Deno.test("ProgressPublisher drops and counts events beyond its bound but never a job's start or end", async () => {
  const sent: string[] = [];
  const p = new ProgressPublisher(slowSql(sent), 3);
  for (let n = 0; n < 10; n++) p.publish(progress(n));
  p.publish(progress(99, "job"));
  await p.flushed();
  const types = sent.map((t) => JSON.parse(t).event.type);
  assert.deepEqual(types, ["status", "status", "status", "job"]);
  assert.equal(p.dropped, 7);
});

Deno.test("ProgressPublisher goes on after a failed send, counting it as dropped", async () => {
  const sent: string[] = [];
  let calls = 0;
  const p = new ProgressPublisher(slowSql(sent, () => ++calls === 2));
  for (let n = 0; n < 3; n++) p.publish(progress(n));
  await p.flushed();
  assert.deepEqual(sent.map((t) => JSON.parse(t).event.n), [0, 2]);
  assert.equal(p.dropped, 1);
});

Deno.test("progressPayload replaces an event over PostgreSQL's notification limit by a marker", () => {
  const small = progressPayload(progress(1));
  assert.deepEqual(JSON.parse(small).event, { type: "status", n: 1 });
  const big = progressPayload({
    agent: "a",
    job: "j",
    event: { type: "log", text: "é".repeat(5000) },
  });
  assert.deepEqual(JSON.parse(big), {
    agent: "a",
    job: "j",
    event: { type: "log", omitted: true },
  });
});
