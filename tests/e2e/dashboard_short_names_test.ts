/**
 * The dashboard shows a model whose id is a file path (llama-server `-m FILE`) by its short name on
 * every view, with the full id in the title and in the comparison's form value. Screenshots of the
 * three views (desktop 1440×900 and mobile 390×844, light and dark) go to `test-artifacts/`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hasChromium, launchChromium } from "./_browser.ts";
import { ensureIslandsBuilt, REPO_ROOT, tempEnv } from "../_helpers.ts";
import { seedStore } from "../routes/_seed.ts";
import { createLogger } from "../../lib/log.ts";
import { createWebApp } from "../../app/mod.ts";

const ARTIFACTS = join(REPO_ROOT, "test-artifacts");
const PATH_ID = "/root/.cache/localbench/engine/llama.cpp-de3ff81/models/tiny-a.gguf";

Deno.test({
  name: "the dashboard shows a model file's short name, keeping the full id behind it",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    await using env = await tempEnv();
    await ensureIslandsBuilt();
    const web = await createWebApp({
      env: env.env,
      plugins: null,
      exit: () => {},
      logger: createLogger("test", { sink: () => {} }),
    });
    seedStore(web.store, { models: [PATH_ID, "qwen/qwen3-4b"], quants: ["f32"] });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, web.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const browser = await launchChromium();
    try {
      for (const scheme of ["light", "dark"] as const) {
        for (
          const [size, viewport] of Object.entries({
            desktop: { width: 1440, height: 900 },
            mobile: { width: 390, height: 844 },
          })
        ) {
          const context = await browser.newContext({ viewport, colorScheme: scheme });
          const page = await context.newPage();
          const open = async (path: string) => {
            await page.goto(`${base}${path}`);
            await page.waitForSelector('html[data-hydrated="true"]', { timeout: 10_000 });
          };
          const shot = (name: string) =>
            page.screenshot({
              path: join(ARTIFACTS, `short_names_${name}_${size}_${scheme}.png`),
              fullPage: true,
            });

          await page.goto(`${base}/`); // Home has no island: nothing to hydrate
          const cell = page.locator(`td a[title="${PATH_ID}@f32"]`);
          assert.equal((await cell.first().textContent())?.trim(), "tiny-a");
          const bar = page.locator(`#chart-top10 a[title="${PATH_ID}@f32"]`);
          assert.equal((await bar.textContent())?.trim(), "tiny-a f32");
          await shot("home");

          await open("/results");
          await page.waitForSelector("#results-table tbody tr");
          const row = page.locator(`#results-table a[title^="${PATH_ID}@f32:"]`);
          assert.equal((await row.textContent())?.trim(), "tiny-a@f32");
          const heat = page.locator(`#heatmap th[title="${PATH_ID}"]`);
          assert.equal((await heat.textContent())?.trim(), "tiny-a");
          assert.ok(!(await page.content()).includes(`>${PATH_ID}<`), "no full path as text");
          await shot("results");

          await open(`/comparison?model=${encodeURIComponent(PATH_ID)}`);
          const option = page.locator(`#model option[value="${PATH_ID}"]`);
          assert.equal((await option.textContent())?.trim(), "tiny-a · every variant");
          const variant = page.locator(`#model option[value="${PATH_ID}@f32"]`);
          assert.equal((await variant.textContent())?.trim(), "tiny-a f32");
          assert.equal(await page.locator("#model").inputValue(), PATH_ID);
          await shot("comparison");
          await context.close();
        }
      }
    } finally {
      await browser.close();
      await server.shutdown();
      await web.close();
    }
  },
});
