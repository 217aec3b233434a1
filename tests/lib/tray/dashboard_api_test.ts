import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { UpstreamError } from "../../../lib/error.ts";
import { createDashboardClient } from "../../../lib/tray/mod.ts";
import { ManualClock } from "./_fakes.ts";

interface Seen {
  url: string;
  method: string;
  headers: Headers;
  body: string | null;
}

function recorder(respond: () => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const fetch = (async (input: URL | RequestInfo, init?: RequestInit) => {
    seen.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: (init?.body as string | undefined) ?? null,
    });
    return await respond();
  }) as typeof globalThis.fetch;
  return { seen, fetch };
}

Deno.test("status() GETs /api/status on the dashboard's origin", async () => {
  const { seen, fetch } = recorder(() => Response.json({ status: "paused" }));
  const client = createDashboardClient("http://127.0.0.1:8080/some/page?x=1", { fetch });
  assert.equal(await client.status(), "paused");
  assert.equal(seen[0]!.url, "http://127.0.0.1:8080/api/status");
  assert.equal(seen[0]!.method, "GET");
  assert.equal(seen[0]!.headers.get("authorization"), null);
});

Deno.test("control() POSTs {} with the bearer token and no Origin header", async (t) => {
  for (
    const path of [
      "benchmark/start",
      "benchmark/pause",
      "benchmark/resume",
      "benchmark/stop",
      "system/shutdown",
    ] as const
  ) {
    await t.step(path, async () => {
      const { seen, fetch } = recorder(() => Response.json({ ok: true }));
      const client = createDashboardClient("http://localhost:4321", { fetch, token: "s3cret" });
      await client.control(path);
      assert.equal(seen[0]!.url, `http://localhost:4321/api/${path}`);
      assert.equal(seen[0]!.method, "POST");
      assert.equal(seen[0]!.body, "{}");
      assert.equal(seen[0]!.headers.get("content-type"), "application/json");
      assert.equal(seen[0]!.headers.get("authorization"), "Bearer s3cret");
      assert.equal(seen[0]!.headers.get("origin"), null);
    });
  }
});

Deno.test("status() is error when the dashboard is unreachable, failing or unclear", async (t) => {
  const cases: [string, () => Response | Promise<Response>][] = [
    ["network error", () => Promise.reject(new TypeError("connection refused"))],
    ["HTTP 500", () => new Response("boom", { status: 500 })],
    ["not JSON", () => new Response("<html>")],
    ["unknown status", () => Response.json({ status: "exploded" })],
  ];
  for (const [name, respond] of cases) {
    await t.step(name, async () => {
      const client = createDashboardClient("http://127.0.0.1:9", recorder(respond));
      assert.equal(await client.status(), "error");
    });
  }
});

Deno.test("control() throws an UpstreamError carrying the dashboard's status", async () => {
  const conflict = createDashboardClient(
    "http://127.0.0.1:9",
    recorder(() => Response.json({ error: "not running" }, { status: 409 })),
  );
  await assert.rejects(conflict.control("benchmark/pause"), (err: unknown) => {
    assert.ok(err instanceof UpstreamError);
    assert.equal(err.upstreamStatus, 409);
    assert.equal(statusOf(err), 502);
    assert.match(err.message, /Cannot POST \/api\/benchmark\/pause: 409/);
    return true;
  });
  const down = createDashboardClient(
    "http://127.0.0.1:9",
    recorder(() => Promise.reject(new TypeError("refused"))),
  );
  await assert.rejects(down.control("system/shutdown"), (err: unknown) => {
    assert.ok(err instanceof UpstreamError && statusOf(err) === 503);
    return true;
  });
});

Deno.test("a request that outlives the timeout is aborted and reads as error", async () => {
  const clock = new ManualClock();
  const fetch = ((_: unknown, init?: RequestInit) =>
    new Promise<Response>((_, reject) => {
      init?.signal?.addEventListener("abort", () => reject(init.signal!.reason));
    })) as typeof globalThis.fetch;
  const client = createDashboardClient("http://127.0.0.1:9", { fetch, clock, timeoutMs: 2500 });
  const pending = client.status();
  const timer = [...clock.timers.values()][0]!;
  assert.equal(timer.ms, 2500);
  timer.fn();
  assert.equal(await pending, "error");
  assert.equal(clock.timers.size, 0);
});
