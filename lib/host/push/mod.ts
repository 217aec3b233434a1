/**
 * The host's push socket: a hub fanning plugin messages out and the WebSocket route.
 *
 * @module
 */
export { type PluginMessage, type PushClient, PushHub } from "./clients.ts";
export { pushSocketHandler, type PushSocketOptions } from "./socket.ts";
