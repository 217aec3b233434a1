import assert from "node:assert/strict";
import { saveSettings } from "../../../../lib/shared/settings/settings_api.ts";

/** Runs `fn` with `fetch` answering from `answers` in turn (a function throws or answers). */
async function withFetch(
  answers: ((req: Request) => Response | Promise<Response>)[],
  fn: (calls: Request[]) => Promise<void>,
): Promise<void> {
  const original = globalThis.fetch;
  const calls: Request[] = [];
  globalThis.fetch = (input, init) => {
    const req = new Request(new URL(String(input), "http://127.0.0.1/"), init);
    calls.push(req);
    const answer = answers.shift();
    if (!answer) throw new Error("no more answers");
    return Promise.resolve(answer(req));
  };
  try {
    await fn(calls);
  } finally {
    globalThis.fetch = original;
  }
}

const saved = () => Response.json({ plugins: { p: { a: 2 } }, secrets: {} });
const refused = () => {
  throw new TypeError("error sending request: connection refused");
};

Deno.test("saveSettings() sends a change again once a restarting host answers, so it is not lost", async () => {
  await withFetch([
    refused, // the POST meets the host gone for its restart
    refused, // still gone
    () => Response.json({}), // the host answers again (GET /api/settings)
    saved, // the POST sent again
  ], async (calls) => {
    const result = await saveSettings("p", { a: 2 }, "csrf", ["a"]);
    assert.deepEqual(result.values, { a: 2 });
    assert.deepEqual(calls.map((c) => c.method), ["POST", "GET", "GET", "POST"]);
    assert.equal(await calls.at(-1)!.text(), JSON.stringify({ plugins: { p: { a: 2 } } }));
    assert.equal(calls.at(-1)!.headers.get("X-CSRF-Token"), "csrf");
  });
});

Deno.test("saveSettings() waits out a 503 with Retry-After and sends the change again", async () => {
  await withFetch([
    () =>
      Response.json({ error: "The host is restarting", code: "restarting" }, {
        status: 503,
        headers: { "Retry-After": "0" },
      }),
    saved,
  ], async (calls) => {
    assert.deepEqual((await saveSettings("p", { a: 2 }, "", ["a"])).values, { a: 2 });
    assert.equal(calls.length, 2);
  });
});

Deno.test("saveSettings() reports a 503 without Retry-After and any refusal at once", async () => {
  for (const status of [503, 400]) {
    await withFetch(
      [() => Response.json({ error: "no", code: "x" }, { status })],
      async (calls) => {
        await assert.rejects(saveSettings("p", { a: 2 }, "", ["a"]), /no/);
        assert.equal(calls.length, 1);
      },
    );
  }
});
