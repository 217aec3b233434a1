import assert from "node:assert/strict";
import { waitFor } from "../../../_helpers.ts";
import { startLmStudioDouble } from "../../../doubles/lmstudio_server.ts";
import { post, type TestDashboard, testDashboard } from "../../_dashboard.ts";

async function withDouble(
  tokenDelayMs: number,
  fn: (d: TestDashboard) => Promise<void>,
): Promise<void> {
  const double = await startLmStudioDouble({ port: 0, tokenDelayMs });
  try {
    await using d = await testDashboard({
      baseArgs: ["--backend", "rest", "--base-url", double.url, "--runs", "1"],
    });
    await fn(d);
  } finally {
    await double.close();
  }
}

// With the token: shutdown always needs it, even on loopback (see tests/security/).
Deno.test("POST /api/system/shutdown stops the benchmark, answers 200, then exits", async () => {
  await withDouble(30, async (d) => {
    await post(d, "/api/benchmark/start", { n_parallel: 1 });
    const res = await d.request("/api/system/shutdown", {
      method: "POST",
      headers: { "X-Localbench-Token": d.web.token },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: "shutting_down" });
    assert.equal((await (await d.request("/api/status")).json()).status, "idle");
    await waitFor(() => d.exits > 0, "the exit after the shutdown answer");
    assert.equal(d.exits, 1);
  });
});
