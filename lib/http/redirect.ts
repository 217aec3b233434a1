/**
 * Redirect targets a client chooses (`?next=`): only paths of this server. A value that a
 * browser would read as another site (`//evil`, `/\evil`, `/%09/evil` once the browser strips
 * the tab, `https://evil`) falls back to the default.
 *
 * @module
 */

const BASE = "http://same.origin.invalid";

function hasControlOrBackslash(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

/**
 * The same-origin path `next` stands for, or `fallback`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { safeLocalPath } from "./redirect.ts";
 * assert.equal(safeLocalPath("/plugins/power?x=1", "/"), "/plugins/power?x=1");
 * assert.equal(safeLocalPath("/\t/evil.example/x", "/"), "/");
 * assert.equal(safeLocalPath("//evil.example", "/"), "/");
 * ```
 */
export function safeLocalPath(next: string | undefined | null, fallback: string): string {
  if (typeof next !== "string" || !next.startsWith("/") || next.length > 2000) return fallback;
  // Browsers drop tabs and newlines inside URLs and read `\` as `/`: refuse them outright.
  if (hasControlOrBackslash(next) || next.startsWith("//")) return fallback;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE || url.pathname.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
