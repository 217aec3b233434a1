/**
 * The host's printer endpoints: print-host style printer and job routes, and OctoPrint's
 * connection API, over the host's {@linkcode Printer} (`lib/printer/`).
 *
 * @module
 */
export { printerRoutes } from "./api.ts";
export { connectionRoutes } from "./connection_api.ts";
