/**
 * Authentication of the plugin host: users and API keys (hashed in config.yaml), sessions with
 * CSRF tokens, and permission middleware.
 *
 * @module
 */
export { generateApiKey, hashApiKey, hashPassword, verifyPassword } from "./hash.ts";
export { type Principal, UserStore } from "./users.ts";
export {
  type Session,
  SESSION_COOKIE,
  SessionStore,
  type SessionStoreOptions,
} from "./sessions.ts";
export {
  assertPermission,
  authenticate,
  type AuthenticateOptions,
  requireMethodPermission,
  requirePermission,
  resolvePrincipal,
} from "./middleware.ts";
export { authRoutes, type AuthRoutesOptions } from "./api.ts";
export { LoginThrottle } from "./throttle.ts";
