import assert from "node:assert/strict";
import { UsageError } from "../../../lib/error.ts";
import { parseAgentArgs } from "../../../lib/fleet/agent_args.ts";

const noEnv = () => undefined;

Deno.test("parseAgentArgs keeps the agent's flags and hands every other argument to the jobs", () => {
  const a = parseAgentArgs(
    ["--store", "postgres://u:p@db/lb", "--name", "gpu", "--backend", "rest", "--runs", "2"],
    noEnv,
    () => "ignored",
  );
  assert.equal(a.store, "postgres://u:p@db/lb");
  assert.equal(a.name, "gpu");
  assert.equal(a.heartbeatSeconds, 30);
  assert.deepEqual(a.benchArgs, ["--backend", "rest", "--runs", "2"]);
});

Deno.test("parseAgentArgs takes the store from LOCALBENCH_STORE and the name from the host name", () => {
  const env = (n: string) => n === "LOCALBENCH_STORE" ? "postgres://h/db" : undefined;
  const a = parseAgentArgs([], env, () => "Work Station.lan");
  assert.equal(a.store, "postgres://h/db");
  assert.equal(a.name, "Work-Station");
});

Deno.test("parseAgentArgs refuses a bad name, an empty store and a heartbeat pg-boss cannot keep", () => {
  for (
    const argv of [["--name", "../x"], ["--store", ""], ["--heartbeat-seconds", "5"], [
      "--heartbeat-seconds",
      "ten",
    ]]
  ) {
    assert.throws(() => parseAgentArgs(argv, noEnv, () => "h"), UsageError, argv.join(" "));
  }
});
