/**
 * Hashing of secrets: API keys (long random tokens) with SHA-256, passwords with scrypt and a
 * random salt; a password check runs in constant time (`lib/safe_equal.ts` compares the rest).
 *
 * @module
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const SCRYPT = { N: 16384, r: 8, p: 1, keyLen: 32 } as const;

/**
 * A new random API key: `lb_` and 32 random bytes in base64url (46 characters). The prefix keeps a
 * key from starting with `-`, which a command line would read as an option (`apikey revoke KEY`),
 * and makes a leaked key easy to recognise.
 */
export function generateApiKey(): string {
  return `lb_${randomBytes(32).toString("base64url")}`;
}

/** The stored form of an API key: hex SHA-256. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function derive(password: string, salt: Buffer, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password,
      salt,
      SCRYPT.keyLen,
      { N: n, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 },
      (err, key) => err ? reject(err) : resolve(key),
    );
  });
}

/**
 * Hashes a password as `scrypt$N$salt$hash` (base64url parts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashPassword, verifyPassword } from "./hash.ts";
 * const stored = await hashPassword("s3cret");
 * assert.ok(await verifyPassword("s3cret", stored));
 * ```
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT.N);
  return `scrypt$${SCRYPT.N}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** Checks a password against its stored `scrypt$...` form. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 4 || parts[0] !== "scrypt") return false;
  const n = Number(parts[1]);
  if (!Number.isInteger(n) || n < 2 || n > 1 << 20) return false;
  const expected = Buffer.from(parts[3]!, "base64url");
  const key = await derive(password, Buffer.from(parts[2]!, "base64url"), n);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
