/**
 * ReDoS: a catastrophic pattern on a line an attacker planted (a failed login writes the user
 * name into host.log) must neither freeze the host nor run past its budget.
 */
import assert from "node:assert/strict";
import { json } from "../lib/host/_helpers.ts";
import { startLogHost } from "../plugins/logmonitor/_host.ts";

const BASE = "/plugin/logmonitor";
const EVIL = "(a+)+$";
const BUDGET_MS = 1500;

async function plantedHost() {
  const t = await startLogHost({}, {}, {
    search: { regexBudgetMs: BUDGET_MS },
    searchRate: { max: 100, windowMs: 60_000 },
  });
  await t.host.settings.updateMany({ logmonitor: { regex_search_enabled: true } });
  // The attacker needs no account: a failed login logs the chosen user name.
  const login = await t.request("/api/login", {
    ...json("POST", { user: "a".repeat(40) + "!", pass: "x" }, { Origin: "http://localhost" }),
    key: null,
  });
  await login.body?.cancel();
  assert.match(await Deno.readTextFile(`${t.logDir}/host.log`), /a{40}!/);
  return t;
}

Deno.test("a catastrophic regex is stopped at its budget while other requests are answered", async () => {
  const t = await plantedHost();
  try {
    const started = performance.now();
    let searchDone = 0;
    const search = t.request(
      `${BASE}/search?file=host.log&use_regex=true&query=${encodeURIComponent(EVIL)}`,
    )
      .then(async (res) => {
        searchDone = performance.now();
        return { status: res.status, body: await res.json() };
      });
    await new Promise((r) => setTimeout(r, 100)); // the worker is busy backtracking now
    const asked = performance.now();
    const other = await t.request(`${BASE}/files`);
    const answeredIn = performance.now() - asked;
    assert.equal(other.status, 200);
    await other.body?.cancel();
    assert.equal(searchDone, 0, "the other request was answered before the search finished");
    assert.ok(answeredIn < BUDGET_MS / 2, `other request took ${answeredIn.toFixed(0)} ms`);
    const r = await search;
    assert.equal(r.status, 422);
    assert.match(r.body.error, /too slow/);
    const took = searchDone - started;
    assert.ok(took >= BUDGET_MS - 50 && took < BUDGET_MS + 3000, `search ended after ${took} ms`);
    const again = await t.request(`${BASE}/search?file=host.log&use_regex=true&query=a%7B40%7D!`);
    assert.equal((await again.json()).total, 1, "the worker slot is free again and regex works");
  } finally {
    await t.close();
  }
});

Deno.test("regex searches run at most two at a time; a third gets 503 with Retry-After", async () => {
  const t = await plantedHost();
  try {
    const url = `${BASE}/search?file=host.log&use_regex=true&query=${encodeURIComponent(EVIL)}`;
    const first = [t.request(url), t.request(url)];
    await new Promise((r) => setTimeout(r, 100));
    const third = await t.request(url);
    assert.equal(third.status, 503);
    assert.equal(third.headers.get("retry-after"), "1");
    await third.body?.cancel();
    for (const res of await Promise.all(first)) {
      assert.equal(res.status, 422);
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
