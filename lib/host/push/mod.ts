/**
 * The host's push socket: a hub fanning plugin messages out and the WebSocket route.
 *
 * @module
 */
export {
  LAGGED_CLOSE,
  MAX_PUSH_QUEUED_BYTES,
  type PluginMessage,
  type PushClient,
  PushHub,
  type PushHubOptions,
  SOCKETS_PER_ACCOUNT,
  SOCKETS_TOTAL,
  TOO_MANY_SOCKETS_CLOSE,
} from "./clients.ts";
export { pushSocketHandler, type PushSocketOptions } from "./socket.ts";
