/**
 * The browser's JSON client of the dashboard API: sends the token when one is stored, and
 * turns `{"error": ...}` bodies into thrown errors.
 *
 * @module
 */

/** Where the dashboard token is kept in the browser. */
export const TOKEN_KEY = "localbench.token";

/** Calls the API; resolves with the JSON body (null for 204). */
export async function api<T = unknown>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.body !== undefined) headers.set("Content-Type", "application/json");
  const token = globalThis.localStorage?.getItem(TOKEN_KEY);
  if (token) headers.set("X-Localbench-Token", token);
  const res = await fetch(path, { ...init, headers });
  if (res.status === 204) return null as T;
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body?.error ?? `HTTP ${res.status}`);
  return body as T;
}
