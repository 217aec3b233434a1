/**
 * Browser sessions held in memory: an opaque id in an HttpOnly cookie, a CSRF token the client
 * sends back in `X-CSRF-Token` on state-changing requests, and an idle expiry.
 *
 * @module
 */
import { randomBytes } from "node:crypto";
import type { Permission } from "../plugin.ts";
import { safeEqual } from "./hash.ts";

/** The session cookie's name. */
export const SESSION_COOKIE = "localbench_session";

/** One session. */
export interface Session {
  id: string;
  user: string;
  permissions: Permission[];
  csrfToken: string;
  /** Expiry in ms since the epoch (extended on use). */
  expires: number;
}

/** Options of {@linkcode SessionStore}. */
export interface SessionStoreOptions {
  /** Idle lifetime in ms. @default 12 hours */
  ttlMs?: number;
  /** Time source. @default Date.now */
  now?: () => number;
}

/** In-memory sessions. */
export class SessionStore {
  #sessions = new Map<string, Session>();
  #ttl: number;
  #now: () => number;

  constructor(options: SessionStoreOptions = {}) {
    this.#ttl = options.ttlMs ?? 12 * 3600_000;
    this.#now = options.now ?? Date.now;
  }

  /** Opens a session for a user. */
  create(user: string, permissions: Permission[]): Session {
    const session: Session = {
      id: randomBytes(32).toString("base64url"),
      user,
      permissions,
      csrfToken: randomBytes(32).toString("base64url"),
      expires: this.#now() + this.#ttl,
    };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id (its expiry extended), or null. */
  get(id: string): Session | null {
    const session = this.#sessions.get(id);
    if (!session) return null;
    if (session.expires <= this.#now()) {
      this.#sessions.delete(id);
      return null;
    }
    session.expires = this.#now() + this.#ttl;
    return session;
  }

  /** Whether `token` is the session's CSRF token. */
  checkCsrf(session: Session, token: string | undefined): boolean {
    return typeof token === "string" && safeEqual(token, session.csrfToken);
  }

  /** Closes a session. */
  delete(id: string): void {
    this.#sessions.delete(id);
  }

  /** Closes every session of a user (e.g. after a password change). */
  deleteUser(user: string): void {
    for (const [id, s] of this.#sessions) if (s.user === user) this.#sessions.delete(id);
  }
}
