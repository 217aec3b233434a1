import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError } from "../../../lib/error.ts";
import { waitForHttp } from "../../../lib/engine/ready.ts";

Deno.test("waitForHttp() resolves once a path answers 200", async () => {
  let calls = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    calls++;
    const ok = new URL(req.url).pathname === "/models" && calls > 3;
    return new Response(ok ? "{}" : "loading", { status: ok ? 200 : 503 });
  });
  try {
    const path = await waitForHttp(`http://127.0.0.1:${server.addr.port}`, {
      intervalMs: 5,
      timeoutMs: 5_000,
    });
    assert.equal(path, "/models");
  } finally {
    await server.shutdown();
  }
});

Deno.test("waitForHttp() gives up with engine_exited when the process ends first", async () => {
  await assert.rejects(
    waitForHttp("http://127.0.0.1:1", {
      exited: Promise.resolve(),
      intervalMs: 5,
      timeoutMs: 5_000,
    }),
    (err: unknown) =>
      err instanceof AppError && err.code === "engine_exited" && statusOf(err) === 502,
  );
});

Deno.test("waitForHttp() gives up with engine_start_timeout after the deadline", async () => {
  await assert.rejects(
    waitForHttp("http://127.0.0.1:1", { intervalMs: 5, timeoutMs: 60 }),
    (err: unknown) =>
      err instanceof AppError && err.code === "engine_start_timeout" && statusOf(err) === 504,
  );
});
