import assert from "node:assert/strict";
import type { Config } from "../../../lib/config/mod.ts";
import { localController } from "../../../lib/dashboard/local_controller.ts";
import { UnreachableError } from "../../../lib/error.ts";
import { ResultsStore } from "../../../lib/store/mod.ts";

/** An empty home: no user configuration. */
const HOME = Deno.makeTempDirSync();
globalThis.addEventListener("unload", () => Deno.removeSync(HOME, { recursive: true }));
const env = (name: string) => name === "HOME" ? HOME : undefined;
const noMachine = () => Promise.reject(new Error("no machine in this test"));

Deno.test("localController resolves its defaults from the base arguments as the command line would", async () => {
  using store = disposable(ResultsStore.open(":memory:"));
  const controller = localController({
    store: store.value,
    env,
    baseArgs: ["--runs", "4", "--max-tokens", "32"],
    say: () => {},
    machine: noMachine,
  });
  const { config } = await controller.defaults();
  assert.equal(config.num_runs, 4);
  assert.equal(config.inference.max_tokens, 32);
});

Deno.test("localController connects with the job's own arguments after the base ones and reports an unreachable server", async () => {
  using store = disposable(ResultsStore.open(":memory:"));
  const seen: Config[] = [];
  const controller = localController({
    store: store.value,
    env,
    baseArgs: ["--runs", "4"],
    say: () => {},
    machine: noMachine,
    connect: (config) => {
      seen.push(config);
      return Promise.reject(new UnreachableError("no model server at 127.0.0.1:1"));
    },
  });
  await assert.rejects(controller.start(["--runs", "2"]), UnreachableError);
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.num_runs, 2);
  const { status, outcome } = controller.status();
  assert.equal(status, "idle");
  assert.equal(outcome?.outcome, "failed");
  assert.match(outcome?.error ?? "", /no model server at 127\.0\.0\.1:1/);
});

function disposable(store: ResultsStore) {
  return { value: store, [Symbol.dispose]: () => store.close() };
}
