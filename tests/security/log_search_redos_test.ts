/**
 * ReDoS: a catastrophic pattern on a line an attacker planted (a failed login writes the user
 * name into host.log) runs on RE2 in linear time: it answers at once with the right count. A
 * pattern RE2 cannot run in linear time (backreferences, lookaround) is refused with 422 and
 * the reason; a pattern that is merely slow (a large automaton) is stopped at its budget while
 * other requests are answered.
 */
import assert from "node:assert/strict";
import { json } from "../lib/host/_helpers.ts";
import { startLogHost } from "../plugins/logmonitor/_host.ts";
import { waitFor } from "../_helpers.ts";
import { regexSlotFree } from "../../plugins/logmonitor/regex_worker.ts";

const BASE = "/plugin/logmonitor";
const EVIL = "(a+)+$";
const BUDGET_MS = 1500;

async function plantedHost(budgetMs = BUDGET_MS) {
  const t = await startLogHost({}, {}, {
    search: { regexBudgetMs: budgetMs },
    searchRate: { max: 100, windowMs: 60_000 },
  });
  await t.host.settings.updateMany({ logmonitor: { regex_search_enabled: true } });
  // The attacker needs no account: a failed login logs the chosen user name.
  for (const user of ["a".repeat(40) + "!", "a".repeat(5000) + "!"]) {
    const login = await t.request("/api/login", {
      ...json("POST", { user, pass: "x" }, { Origin: "http://localhost" }),
      key: null,
    });
    await login.body?.cancel();
  }
  assert.match(await Deno.readTextFile(`${t.logDir}/host.log`), /a{40}!/);
  return t;
}

const search = (t: { request(path: string): Promise<Response> }, pattern: string) =>
  t.request(
    `${BASE}/search?file=host.log&use_regex=true&limit=1000&query=${encodeURIComponent(pattern)}`,
  );

Deno.test("a catastrophic regex answers with the count of its plain equivalent, not a timeout", async () => {
  const t = await plantedHost();
  try {
    await t.write("host.log", "2024-01-01 12:00:00,000 - x - INFO - " + "a".repeat(3000) + "\n");
    const text = await Deno.readTextFile(`${t.logDir}/host.log`);
    // (a+)+$ matches exactly the lines ending in "a": what a backtracking engine takes
    // exponential time to find on "aaaa…!" lines.
    const want = text.split("\n").filter((l) => /a\r?$/.test(l)).length;
    for (const pattern of [EVIL, "(a|aa)+$", "(a*)*b", "(.*a){12}!"]) {
      const res = await search(t, pattern);
      const body = await res.json();
      assert.equal(res.status, 200, `${pattern}: ${JSON.stringify(body)}`);
      if (pattern === EVIL || pattern === "(a|aa)+$") assert.equal(body.total, want, pattern);
      if (pattern === "(a*)*b") {
        assert.equal(body.total, text.split("\n").filter((l) => /b/i.test(l)).length, pattern);
      }
      if (pattern === "(.*a){12}!") assert.equal(body.total, 1, "the planted a{40}! line");
    }
    assert.ok(want >= 1, "a line ends in a");
  } finally {
    await t.close();
  }
});

Deno.test("a backreference or lookaround is refused with 422 regex_unsupported naming why", async () => {
  const t = await plantedHost();
  try {
    for (
      const [pattern, why] of [
        ["(a)\\1", /backreferences/],
        ["(?<u>a)\\k<u>", /backreferences/],
        ["a(?=!)", /lookahead and lookbehind/],
        ["(?<!x)a", /lookahead and lookbehind/],
      ] as const
    ) {
      const res = await search(t, pattern);
      const body = await res.json();
      assert.equal(res.status, 422, pattern);
      assert.equal(body.code, "regex_unsupported", pattern);
      assert.match(body.error, why, pattern);
      assert.match(body.error, /RE2/);
    }
    const again = await search(t, "a{40}!");
    assert.equal((await again.json()).total, 1, "the worker slots are free again");
  } finally {
    await t.close();
  }
});

/** Appends ~16 MiB of word lines on which a large automaton runs RE2's slow NFA path. */
async function slowInput(logDir: string) {
  const line = "ab ".repeat(60) + "!\n";
  await Deno.writeTextFile(`${logDir}/host.log`, line.repeat(16 * 1024 * 1024 / line.length), {
    append: true,
  });
}
/**
 * A large automaton: too large for the prefilter (`regex_dfa.ts`, the `(x|y){10}` tail after a
 * free `(x|y)*`), and RE2's own DFA gives up on it, so RE2's NFA runs (about 2 MB/s).
 */
const SLOW = "(\\w+\\s*){100}(x|y)*x(x|y){10}$";

Deno.test("a slow pattern is stopped at its budget while other requests are answered", async () => {
  const t = await plantedHost(300);
  try {
    await slowInput(t.logDir);
    const started = performance.now();
    let searchDone = 0;
    const slow = search(t, SLOW).then(async (res) => {
      searchDone = performance.now();
      return { status: res.status, body: await res.json() };
    });
    await new Promise((r) => setTimeout(r, 100));
    const asked = performance.now();
    const other = await t.request(`${BASE}/files`);
    const answeredIn = performance.now() - asked;
    assert.equal(other.status, 200);
    await other.body?.cancel();
    assert.ok(answeredIn < 1000, `other request took ${answeredIn.toFixed(0)} ms`);
    const r = await slow;
    assert.equal(r.status, 422);
    assert.equal(r.body.code, "regex_timeout");
    assert.match(r.body.error, /too slow/);
    const took = searchDone - started;
    assert.ok(took >= 250 && took < 5000, `search ended after ${took} ms`);
  } finally {
    await t.close();
  }
});

Deno.test("regex searches run at most two at a time; a third gets 503 with Retry-After", async () => {
  const t = await plantedHost(5000);
  try {
    await slowInput(t.logDir);
    const first = [search(t, SLOW), search(t, SLOW)];
    await waitFor(() => !regexSlotFree(), 5000);
    const third = await search(t, SLOW);
    assert.equal(third.status, 503);
    assert.equal(third.headers.get("retry-after"), "1");
    await third.body?.cancel();
    for (const res of await Promise.all(first)) {
      assert.ok([200, 422].includes(res.status), `status ${res.status}`);
      await res.body?.cancel();
    }
  } finally {
    await t.close();
  }
});

Deno.test("the catastrophic pattern is not run at all while regex search is disabled", async () => {
  const t = await plantedHost();
  try {
    await t.host.settings.updateMany({ logmonitor: { regex_search_enabled: false } });
    const t0 = performance.now();
    const res = await t.request(
      `${BASE}/search?file=host.log&use_regex=true&query=${encodeURIComponent(EVIL)}`,
    );
    assert.equal(res.status, 403);
    await res.body?.cancel();
    assert.ok(performance.now() - t0 < BUDGET_MS, "refused before any matching");
  } finally {
    await t.close();
  }
});

Deno.test("plain-text search over an 8 MiB line stays linear and returns the line cut", async () => {
  const t = await startLogHost({}, {}, { searchRate: { max: 100, windowMs: 60_000 } });
  try {
    await Deno.writeTextFile(`${t.logDir}/long.log`, "a".repeat(8 * 1024 * 1024) + "\n");
    const worst = await t.request(
      `${BASE}/search?file=long.log&query=${"a".repeat(999)}b`,
    );
    assert.equal((await worst.json()).total, 0);
    const hit = await (await t.request(`${BASE}/search?file=long.log&query=aaa`)).json();
    assert.equal(hit.total, 1);
    assert.ok(hit.results[0].raw.length < 20_000, "the returned line is cut");
  } finally {
    await t.close();
  }
});
