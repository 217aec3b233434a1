/**
 * The host's printer endpoints: print-host style printer and job routes, OctoPrint's connection
 * API, and the printer's messages on the push socket, over the host's printer (`lib/printer/`).
 *
 * @module
 */
export { printerRoutes } from "./api.ts";
export { connectionCurrent, connectionInfo, connectionRoutes } from "./connection_api.ts";
export { feedPrinterPush, type PrinterFeedOptions } from "./push_feed.ts";
