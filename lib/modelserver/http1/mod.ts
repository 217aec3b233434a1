/**
 * A small HTTP/1.1 client for the model servers' streams (see client.ts for why and what it does).
 *
 * @module
 */
export { Http1Client, type Http1ClientOptions, type Http1RequestInit } from "./client.ts";
export { Http1Response } from "./response.ts";
export type { FieldsInit } from "./head.ts";
export { type Connection, type Connector, type Endpoint, tcpConnector } from "./dial.ts";
export { HttpProtocolError } from "./reader.ts";
export { envIfAllowed, proxied } from "./proxy.ts";
