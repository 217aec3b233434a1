/**
 * Headless Chromium for the browser tests: Debian's `/usr/bin/chromium` driven by playwright-core,
 * with the flags that keep it off the network it does not have.
 *
 * @module
 */
import { type Browser, type BrowserContext, chromium } from "playwright-core";

/** Debian's Chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** Whether Chromium is installed (browser tests are ignored only when it is not). */
export const hasChromium: boolean = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
})();

/** Command-line flags of every test browser. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Launches a headless browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 30_000,
    args: CHROMIUM_ARGS,
  });
}

/** Launches a headless browser with its own profile folder (a persistent context). */
export function launchChromiumContext(profile: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 30_000,
    args: CHROMIUM_ARGS,
  });
}
