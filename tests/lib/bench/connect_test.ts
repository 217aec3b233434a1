import assert from "node:assert/strict";
import { connect } from "../../../lib/bench/connect.ts";
import { UnreachableError } from "../../../lib/error.ts";
import type { Backend } from "../../../lib/modelserver/backend.ts";
import { httpError } from "../../../lib/modelserver/errors.ts";
import type { BackendOptions } from "../../../lib/modelserver/factory.ts";
import { testConfig } from "./_harness.ts";

/** Backends that answer only on `up` ports; records what was created and closed. */
function fakeBackends(up: number[]) {
  const created: number[] = [];
  const closed: number[] = [];
  const create = (o: BackendOptions): Backend => {
    created.push(o.port!);
    return {
      kind: o.backend,
      describe: () => `fake at ${o.port}`,
      listModels: () =>
        up.includes(o.port!)
          ? Promise.resolve([])
          : Promise.reject(new UnreachableError("refused")),
      close: () => {
        closed.push(o.port!);
        return Promise.resolve();
      },
    } as unknown as Backend;
  };
  return { create, created, closed };
}

Deno.test("the second port is tried when the first does not answer, and the first is closed", async () => {
  const f = fakeBackends([1235]);
  const config = testConfig(1234);
  config.modelserver.ports = [1234, 1235];
  const backend = await connect(config, { createBackend: f.create, lms: null, note: () => {} });
  assert.equal(backend.describe(), "fake at 1235");
  assert.deepEqual(f.created, [1234, 1235]);
  assert.deepEqual(f.closed, [1234]);
});

Deno.test("the first port is used when it answers", async () => {
  const f = fakeBackends([1234, 1235]);
  const config = testConfig(1234);
  config.modelserver.ports = [1234, 1235];
  await connect(config, { createBackend: f.create, lms: null, note: () => {} });
  assert.deepEqual(f.created, [1234]);
});

Deno.test("other errors than 'unreachable' are not hidden behind the next port", async () => {
  const config = testConfig(1234);
  const create = (() =>
    ({
      listModels: () => Promise.reject(httpError(401, '{"error":"Invalid API token"}')),
      close: () => Promise.resolve(),
    }) as unknown as Backend) as (o: BackendOptions) => Backend;
  await assert.rejects(
    connect(config, { createBackend: create, lms: null, note: () => {} }),
    /requires an API token: pass it with --api-token TOKEN/,
  );
});
