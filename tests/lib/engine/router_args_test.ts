import assert from "node:assert/strict";
import { routerArgs, type RouterArgsInput } from "../../../lib/engine/router_args.ts";

const input: RouterArgsInput = {
  modelsDir: "/m",
  host: "127.0.0.1",
  port: 41000,
  threads: 2,
  ctxSize: 512,
  parallel: 1,
  modelsMax: 2,
  autoload: true,
  extraArgs: [],
};

Deno.test("routerArgs() starts router mode on the given loopback port without the web UI", () => {
  assert.deepEqual(routerArgs(input), [
    "--models-dir",
    "/m",
    "--host",
    "127.0.0.1",
    "--port",
    "41000",
    "-c",
    "512",
    "-t",
    "2",
    "-np",
    "1",
    "--models-max",
    "2",
    "--models-autoload",
    "--no-webui",
  ]);
});

Deno.test("routerArgs() turns autoload off and appends extra flags last", () => {
  const args = routerArgs({ ...input, autoload: false, extraArgs: ["--metrics"] });
  assert.ok(args.includes("--no-models-autoload"));
  assert.equal(args.at(-1), "--metrics");
});

Deno.test("routerArgs() rejects values llama-server would refuse", async (t) => {
  for (
    const [field, value] of [["port", 0], ["port", 70000], ["threads", 0], [
      "ctxSize",
      1.5,
    ]] as const
  ) {
    await t.step(`${field} ${value}`, () => {
      assert.throws(() => routerArgs({ ...input, [field]: value }), RangeError);
    });
  }
  await t.step("modelsMax -1", () => {
    assert.throws(() => routerArgs({ ...input, modelsMax: -1 }), /modelsMax/);
  });
});
