/**
 * Browser sessions held in memory: an opaque id in an HttpOnly cookie, a CSRF token the client
 * sends back in `X-CSRF-Token` on state-changing requests, an idle expiry and an absolute one.
 * A session names its user and the stamp of the password it logged in with, never a copy of
 * the permissions: the authentication middleware reads the account at each request, so a cut
 * permission applies at once and a changed password or deleted user ends the session.
 *
 * @module
 */
import { randomBytes } from "node:crypto";
import { safeEqual } from "../../safe_equal.ts";

/** The session cookie's name. */
export const SESSION_COOKIE = "localbench_session";

/** One session. */
export interface Session {
  id: string;
  user: string;
  /** The account's password stamp at login (`Account.stamp`). */
  stamp: string;
  csrfToken: string;
  /** Idle expiry in ms since the epoch (extended on use, never past `ends`). */
  expires: number;
  /** Absolute end in ms since the epoch (login + the absolute lifetime). */
  ends: number;
}

/** Options of {@linkcode SessionStore}. */
export interface SessionStoreOptions {
  /** Idle lifetime in ms. @default 12 hours */
  ttlMs?: number;
  /** Absolute lifetime in ms, however active the session. @default 24 hours */
  maxAgeMs?: number;
  /** Time source. @default Date.now */
  now?: () => number;
}

/** In-memory sessions. */
export class SessionStore {
  #sessions = new Map<string, Session>();
  #ttl: number;
  #maxAge: number;
  #now: () => number;

  constructor(options: SessionStoreOptions = {}) {
    this.#ttl = options.ttlMs ?? 12 * 3600_000;
    this.#maxAge = options.maxAgeMs ?? 24 * 3600_000;
    this.#now = options.now ?? Date.now;
  }

  /** Opens a session for a user logged in with the password of `stamp`. */
  create(user: string, stamp: string): Session {
    const now = this.#now();
    const ends = now + this.#maxAge;
    const session: Session = {
      id: randomBytes(32).toString("base64url"),
      user,
      stamp,
      csrfToken: randomBytes(32).toString("base64url"),
      expires: Math.min(now + this.#ttl, ends),
      ends,
    };
    this.prune();
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id (its idle expiry extended up to its end), or null. */
  get(id: string): Session | null {
    const session = this.#sessions.get(id);
    if (!session) return null;
    const now = this.#now();
    if (session.expires <= now || session.ends <= now) {
      this.#sessions.delete(id);
      return null;
    }
    session.expires = Math.min(now + this.#ttl, session.ends);
    return session;
  }

  /** Number of live sessions (expired ones are dropped first). */
  get size(): number {
    this.prune();
    return this.#sessions.size;
  }

  /** Drops expired sessions. */
  prune(): void {
    const now = this.#now();
    for (const [id, s] of this.#sessions) {
      if (s.expires <= now || s.ends <= now) this.#sessions.delete(id);
    }
  }

  /** Whether `token` is the session's CSRF token. */
  checkCsrf(session: Session, token: string | undefined): boolean {
    return typeof token === "string" && safeEqual(token, session.csrfToken);
  }

  /** Closes a session. */
  delete(id: string): void {
    this.#sessions.delete(id);
  }

  /**
   * The live sessions, to hand to the next run of the host across a planned restart (the
   * launcher widening its scope), so that signed-in browsers carry on.
   */
  export(): Session[] {
    this.prune();
    return [...this.#sessions.values()].map((s) => ({ ...s }));
  }

  /**
   * Takes over sessions a previous run exported; entries of the wrong shape and expired ones
   * are dropped.
   */
  import(sessions: unknown): void {
    if (!Array.isArray(sessions)) return;
    const now = this.#now();
    for (const s of sessions) {
      if (!isSession(s) || s.expires <= now || s.ends <= now) continue;
      this.#sessions.set(s.id, { ...s });
    }
  }

  /** Closes every session of a user (e.g. after a password change). */
  deleteUser(user: string): void {
    for (const [id, s] of this.#sessions) if (s.user === user) this.#sessions.delete(id);
  }
}

function isSession(value: unknown): value is Session {
  if (value === null || typeof value !== "object") return false;
  const s = value as Record<string, unknown>;
  return ["id", "user", "stamp", "csrfToken"].every((k) =>
    typeof s[k] === "string" && s[k] !== ""
  ) &&
    typeof s.expires === "number" && typeof s.ends === "number";
}
