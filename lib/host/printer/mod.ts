/**
 * The host's printer endpoints over its {@linkcode Printer} (`lib/printer/`): print-host style
 * printer routes, OctoPrint's connection, job and files APIs, the words of the states, and the
 * printer's messages on the push socket.
 *
 * @module
 */
export { printerRoutes } from "./api.ts";
export { connectionCurrent, connectionInfo, connectionRoutes } from "./connection_api.ts";
export { fileRoutes, UPLOAD_PATH } from "./files_api.ts";
export { jobBody, jobRoutes } from "./job_api.ts";
export { feedPrinterPush, type PrinterFeedOptions } from "./push_feed.ts";
export { STATE_TEXT, stateOf, stateText } from "./state_text.ts";
