/**
 * The Benchmark page with a fleet (issue 30.4): on a real PostgreSQL cluster, a dashboard with a
 * FleetService and an in-process agent running the dashboard's own benchmark controller against
 * the LM Studio double. The person picks the agent, starts, sees its live progress and the fleet
 * table's current job, then its completion; an offline agent is listed disabled with its last
 * heartbeat, and one killed mid-job says what became of its job. Without a fleet (SQLite) the
 * page has neither picker nor fleet view.
 */
import assert from "node:assert/strict";
import pg from "pg";
import type { Page } from "playwright-core";
import { connect, lmsFor } from "../../lib/bench/mod.ts";
import { resolveInvocation } from "../../lib/cli/mod.ts";
import { BenchmarkController } from "../../lib/dashboard/controller.ts";
import {
  controllerRunner,
  FleetAgent,
  FleetQueue,
  FleetRegistry,
  FleetService,
} from "../../lib/fleet/mod.ts";
import { UnreachableError } from "../../lib/error.ts";
import { createBackend } from "../../lib/modelserver/mod.ts";
import { ResultsStore } from "../../lib/store/mod.ts";
import { tempEnv } from "../_helpers.ts";
import { testPostgres } from "../_postgres.ts";
import { applyLook, LOOKS, shotPath } from "./_axe.ts";
import { hasChromium, launchChromium } from "./_browser.ts";
import { checkEveryLook, openPage, startDashboard, watchedPage } from "./_dashboard.ts";

const GIB = 1024 ** 3;

const rowText = (page: Page, selector: string) =>
  page.textContent(selector).then((t) => (t ?? "").replace(/\s+/g, " "));

/** Waits until the element `selector`'s text matches `re`. */
async function waitText(page: Page, selector: string, re: RegExp, timeout = 30_000) {
  await page.waitForFunction(
    ([sel, src]) => new RegExp(src).test(document.querySelector(sel)?.textContent ?? ""),
    [selector, re.source] as const,
    { timeout },
  );
}

Deno.test({
  name: "a benchmark started on a fleet agent from the Benchmark page runs there, live, to its end",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const url = await (await testPostgres()).createDatabase();
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on("error", () => {});
    const fleet = await FleetService.start({ url, sql: pool });
    const d = await startDashboard({ seed: false, fleet, tokenDelayMs: 30 });
    await using agentEnv = await tempEnv();
    const agentStore = ResultsStore.open(":memory:");
    let serverDown = false;
    const controller = new BenchmarkController({
      store: agentStore,
      baseArgs: [
        "--backend",
        "rest",
        "--base-url",
        d.double!.url,
        "--limit",
        "1",
        "--max-tokens",
        "96",
      ],
      resolve: (argv) => resolveInvocation(argv, { env: agentEnv.env }),
      // The agent's model server, stopped for the second job.
      connect: (config) =>
        serverDown
          ? Promise.reject(new UnreachableError("No model server at the agent's port 1234"))
          : connect(config, { createBackend, lms: lmsFor(config), note: () => {} }),
    });
    const agent = await FleetAgent.start({
      name: "gpu-box",
      machine: {
        hostname: "gpu-box.lan",
        os: "linux 6.12",
        cpu_cores: 16,
        ram_bytes: 64 * GIB,
        gpus: [{ name: "RTX 4090", driver: "550.54" }],
      },
      runner: controllerRunner(controller),
      sql: pool,
      queue: await FleetQueue.start(url, { pollingIntervalSeconds: 0.5 }),
      heartbeatMs: 1000,
    });
    // An agent killed during a job: no heartbeat for five minutes, its job still in the register.
    const registry = new FleetRegistry(pool);
    await registry.register("old-box", "i0", { hostname: "old-box.lan", cpu_cores: 4 });
    await registry.setJob("old-box", "i0", { id: "job-of-old-box", args: ["--runs", "1"] });
    await pool.query(
      "UPDATE localbench_fleet_agents SET heartbeat_at = now() - interval '5 minutes' " +
        "WHERE name = 'old-box'",
    );
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await applyLook(page, LOOKS[0]!);
      await openPage(page, d.base, "/benchmark");

      // The picker: this machine, the live agent, the offline one disabled with its heartbeat.
      const options = await page.$$eval("#bench-machine option", (os) =>
        os.map((o) => ({
          value: (o as HTMLOptionElement).value,
          text: o.textContent,
          disabled: (o as HTMLOptionElement).disabled,
        })));
      assert.deepEqual(options.map((o) => [o.value, o.disabled]), [
        ["", false],
        ["gpu-box", false],
        ["old-box", true],
      ]);
      assert.equal(options[0]!.text, "This machine");
      assert.match(options[2]!.text ?? "", /offline, last heartbeat 5 min ago/);

      // The fleet view: machine facts, live state, and the killed agent's job said.
      const box = await rowText(page, 'tr[data-agent="gpu-box"]');
      for (const fact of ["gpu-box.lan", "16 cores", "64.0 GiB", "RTX 4090", "live"]) {
        assert.ok(box.includes(fact), `'${fact}' in ${box}`);
      }
      assert.match(await rowText(page, 'tr[data-agent="old-box"]'), /offline 5 min ago/);
      assert.match(
        await rowText(page, 'tr[data-lost="old-box"]'),
        /stopped answering .* job-of-old-box: .*the runs it stored before are kept/,
      );

      // Start on the agent: the live view follows its job.
      await page.selectOption("#bench-machine", "gpu-box");
      await page.fill("#field-runs", "3");
      await page.click("#btn-start");
      await waitText(page, "#bench-message", /^Sent to gpu-box as job [0-9a-f]{8}$/);
      await page.waitForSelector('#bench-status[data-status="running"]', { timeout: 20_000 });
      assert.equal(await page.isDisabled("#btn-stop"), true, "an agent's job is not stopped here");
      assert.equal(await page.isDisabled("#btn-pause"), true);
      await waitText(page, "#live-output", /run 1\/3:/);
      await waitText(
        page,
        'tr[data-agent="gpu-box"] [data-job="current"]',
        /^--runs 3 · \S+ · \d+%/,
        20_000,
      );
      await checkEveryLook(page, "fleet_running", LOOKS[0]!);
      // On a phone the fleet table scrolls sideways inside its card.
      const phone = LOOKS.find((l) => l.name.startsWith("mobile"))!;
      await applyLook(page, phone);
      await page.locator("#fleet").scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath("fleet_table", phone), fullPage: false });
      await applyLook(page, LOOKS[0]!);

      // Completion: the live view ends completed, the table shows the last job.
      await page.waitForSelector('#bench-status[data-status="idle"]', { timeout: 60_000 });
      await waitText(page, "#bench-outcome", /Last run completed: 1 measured/);
      assert.match(await page.textContent("#live-output") ?? "", /run 3\/3:[^]*tok\/s/);
      await waitText(page, 'tr[data-agent="gpu-box"] [data-job="last"]', /^completed$/, 20_000);
      assert.equal(
        await page.textContent('tr[data-agent="gpu-box"] [data-job="current"]'),
        "–",
      );
      await page.screenshot({ path: shotPath("fleet_done", LOOKS[0]!), fullPage: true });
      await applyLook(page, LOOKS[3]!);
      await page.locator("#fleet").scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath("fleet_done", LOOKS[3]!), fullPage: false });
      const stored = agentStore.db.prepare("SELECT count(*) AS n FROM results").get() as {
        n: number;
      };
      assert.equal(stored.n, 1, "the agent stored its result");
      assert.equal(
        (await (await fetch(`${d.base}/api/status`)).json()).outcome,
        null,
        "this machine ran nothing",
      );

      // A job that fails on the agent ends failed here, with the agent's reason, in both views.
      await applyLook(page, LOOKS[0]!);
      serverDown = true;
      await page.click("#btn-start");
      await page.waitForSelector('#bench-outcome[data-outcome="failed"]', { timeout: 30_000 });
      assert.match(await page.textContent("#bench-outcome") ?? "", /No model server at the agent/);
      await waitText(
        page,
        'tr[data-agent="gpu-box"] [data-job="last"]',
        /^failed: .*No model server at the agent/,
        20_000,
      );
      await checkEveryLook(page, "fleet_failed", LOOKS[0]!);
      assert.deepEqual(watch.errors, []);
      assert.deepEqual(watch.external, []);
    } finally {
      await browser.close();
      await agent.stop();
      await controller.shutdown();
      agentStore.close();
      await d.close();
      await pool.end();
    }
  },
});

Deno.test({
  name: "without a fleet (a SQLite store) the Benchmark page has no machine picker or fleet view",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard({ seed: false, modelServer: false });
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await openPage(page, d.base, "/benchmark");
      assert.equal(await page.locator("#bench-machine").count(), 0);
      assert.equal(await page.locator("#fleet").count(), 0);
      await page.waitForTimeout(300);
      assert.deepEqual(watch.errors, []);
    } finally {
      await browser.close();
      await d.close();
    }
  },
});
