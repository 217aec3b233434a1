/**
 * The browser's JSON client of the dashboard API: sends the token when one is stored, and
 * turns `{"error": ...}` bodies into thrown errors.
 *
 * @module
 */

/** Where the dashboard token is kept in the browser. */
export const TOKEN_KEY = "localbench.token";

/** A refusal of the API: its message, status and code. */
export interface ApiError extends Error {
  status: number;
  code: string | null;
}

/** Calls the API; resolves with the JSON body (null for 204); rejects with an {@linkcode ApiError}. */
export async function api<T = unknown>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.body !== undefined) headers.set("Content-Type", "application/json");
  const token = globalThis.localStorage?.getItem(TOKEN_KEY);
  if (token) headers.set("X-Localbench-Token", token);
  const res = await fetch(path, { ...init, headers });
  if (res.status === 204) return null as T;
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(body?.error ?? `HTTP ${res.status}`) as ApiError;
    err.status = res.status;
    err.code = typeof body?.code === "string" ? body.code : null;
    throw err;
  }
  return body as T;
}
