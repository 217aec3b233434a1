/**
 * Users and API keys, stored hashed in the host's `config.yaml` under `accessControl`:
 * `users: {<name>: {password, permissions}}` and `apikeys: [{hash, user, created}]`.
 *
 * @module
 */
import { ConflictError, NotFoundError, UsageError } from "../../error.ts";
import type { ConfigDoc, ConfigFile } from "../config_file.ts";
import type { Permission } from "../plugin.ts";
import { PERMISSIONS } from "../permissions.ts";
import { safeEqual } from "../../safe_equal.ts";
import { generateApiKey, hashApiKey, hashPassword, verifyPassword } from "./hash.ts";

/** A user as the host knows it now (read from config.yaml at each use). */
export interface Account {
  name: string;
  permissions: Permission[];
  /**
   * Changes whenever the password changes: a session remembers the stamp of its login and ends
   * when the stored one differs.
   */
  stamp: string;
  hasPassword: boolean;
  /** Number of API keys of the user. */
  keys: number;
}

/** Who made a request. */
export interface Principal {
  user: string;
  permissions: Permission[];
  /** How the request authenticated. */
  via: "apikey" | "session";
}

interface StoredUser {
  password?: string | null;
  permissions?: unknown;
}

interface StoredKey {
  hash: string;
  user: string;
  created?: string;
}

interface AccessSection {
  users: Record<string, StoredUser>;
  apikeys: StoredKey[];
}

const USER_NAME = /^[A-Za-z0-9_.@-]{1,64}$/;

function access(doc: ConfigDoc): AccessSection {
  const raw = (doc.accessControl ?? {}) as Partial<AccessSection>;
  const users = raw.users && typeof raw.users === "object" ? raw.users : {};
  const apikeys = Array.isArray(raw.apikeys) ? raw.apikeys : [];
  const section = { ...raw, users, apikeys } as AccessSection;
  doc.accessControl = section;
  return section;
}

function accountOf(section: AccessSection, name: string): Account | null {
  const user = Object.hasOwn(section.users, name) ? section.users[name] : undefined;
  if (!user || typeof user !== "object") return null;
  const password = typeof user.password === "string" ? user.password : "";
  return {
    name,
    permissions: permissionsOf(user),
    stamp: hashApiKey(`password:${password}`).slice(0, 32),
    hasPassword: password !== "",
    keys: section.apikeys.filter((k) => k.user === name).length,
  };
}

function permissionsOf(user: StoredUser | undefined): Permission[] {
  if (!user || !Array.isArray(user.permissions)) return [];
  return user.permissions.filter((p): p is Permission => PERMISSIONS.includes(p as Permission));
}

/** Users and keys over a {@linkcode ConfigFile}. */
export class UserStore {
  #file: ConfigFile;
  #now: () => number;

  constructor(file: ConfigFile, now: () => number = Date.now) {
    this.#file = file;
    this.#now = now;
  }

  /**
   * Adds (or replaces) a user with a password and permissions.
   *
   * @throws {UsageError} for an invalid name or empty password.
   */
  async addUser(name: string, password: string, permissions: Permission[]): Promise<void> {
    if (!USER_NAME.test(name) || ["__proto__", "constructor", "prototype"].includes(name)) {
      throw new UsageError(`Invalid user name '${name}': use 1-64 letters, digits, _ . @ -`);
    }
    if (password.length === 0) throw new UsageError("Cannot add user: the password is empty");
    // The same password keeps its stored hash, so the user's sessions live on (with the new
    // permissions); a new password gets a new hash, which ends them.
    const users = access(await this.#file.read()).users;
    const old = Object.hasOwn(users, name) ? users[name]?.password : undefined;
    const same = typeof old === "string" && await verifyPassword(password, old);
    const hash = same ? old : await hashPassword(password);
    await this.#file.update((doc) => {
      access(doc).users[name] = { password: hash, permissions: [...permissions] };
    });
  }

  /**
   * Sets a user's permissions without touching the password; live sessions get them at once.
   *
   * @throws {NotFoundError} when no such user.
   */
  async setPermissions(name: string, permissions: Permission[]): Promise<void> {
    await this.#file.update((doc) => {
      const section = access(doc);
      const user = Object.hasOwn(section.users, name) ? section.users[name] : undefined;
      if (!user) throw new NotFoundError(`Cannot change user '${name}': no such user`);
      section.users[name] = { ...user, permissions: [...permissions] };
    });
  }

  /**
   * Creates an API key for an existing user; returns the key (shown once, stored hashed).
   *
   * @throws {NotFoundError} when the user does not exist.
   */
  async createKey(user: string): Promise<string> {
    const key = generateApiKey();
    await this.#file.update((doc) => {
      const section = access(doc);
      if (!section.users[user]) throw new NotFoundError(`Cannot create key: no user '${user}'`);
      section.apikeys.push({
        hash: hashApiKey(key),
        user,
        created: new Date(this.#now()).toISOString(),
      });
    });
    return key;
  }

  /**
   * Revokes a key.
   *
   * @throws {NotFoundError} when no such key exists.
   */
  async revokeKey(key: string): Promise<void> {
    const hash = hashApiKey(key.trim());
    await this.#file.update((doc) => {
      const section = access(doc);
      const kept = section.apikeys.filter((k) => !safeEqual(k.hash, hash));
      if (kept.length === section.apikeys.length) {
        throw new NotFoundError("Cannot revoke key: no such key");
      }
      section.apikeys = kept;
    });
  }

  /** The account of `name` as stored now, or null. */
  async account(name: string): Promise<Account | null> {
    return accountOf(access(await this.#file.read()), name);
  }

  /** Every account, sorted by name. */
  async listUsers(): Promise<Account[]> {
    const section = access(await this.#file.read());
    return Object.keys(section.users).sort().flatMap((n) => accountOf(section, n) ?? []);
  }

  /**
   * Deletes a user and every API key of the user; returns the number of keys removed. Live
   * sessions of the user end at their next request.
   *
   * @throws {NotFoundError} when no such user; {ConflictError} when it is the last user holding ADMIN.
   */
  async deleteUser(name: string): Promise<number> {
    let removed = 0;
    await this.#file.update((doc) => {
      const section = access(doc);
      if (!Object.hasOwn(section.users, name)) {
        throw new NotFoundError(`Cannot delete user '${name}': no such user`);
      }
      const admins = Object.keys(section.users).filter((n) =>
        permissionsOf(section.users[n]).includes("ADMIN")
      );
      if (admins.length === 1 && admins[0] === name) {
        throw new ConflictError(`Cannot delete user '${name}': it is the last user with ADMIN`);
      }
      delete section.users[name];
      const kept = section.apikeys.filter((k) => k.user !== name);
      removed = section.apikeys.length - kept.length;
      section.apikeys = kept;
    });
    return removed;
  }

  /** Whether any user exists. */
  async hasUsers(): Promise<boolean> {
    return Object.keys(access(await this.#file.read()).users).length > 0;
  }

  /**
   * At first start (no users): creates user `admin` with ADMIN, without a password, and
   * returns a new key for it; otherwise returns null.
   */
  async ensureAdmin(): Promise<string | null> {
    if (await this.hasUsers()) return null;
    await this.#file.update((doc) => {
      const section = access(doc);
      if (Object.keys(section.users).length === 0) {
        section.users.admin = { password: null, permissions: ["ADMIN"] };
      }
    });
    return await this.createKey("admin");
  }

  /** The principal of an API key, or null. */
  async verifyKey(key: string): Promise<Principal | null> {
    const hash = hashApiKey(key);
    const section = access(await this.#file.read());
    let found: StoredKey | undefined;
    for (const k of section.apikeys) if (safeEqual(String(k.hash), hash)) found = k;
    if (!found) return null;
    const account = accountOf(section, found.user);
    if (!account) return null;
    return { user: found.user, permissions: account.permissions, via: "apikey" };
  }

  /** The account of a user whose password matches, or null. */
  async verifyLogin(name: string, password: string): Promise<Account | null> {
    const section = access(await this.#file.read());
    const user = Object.hasOwn(section.users, name) ? section.users[name] : undefined;
    if (!user || typeof user.password !== "string") {
      await hashPassword(password); // same work either way
      return null;
    }
    return await verifyPassword(password, user.password) ? accountOf(section, name) : null;
  }
}
