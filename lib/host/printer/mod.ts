/**
 * The embedded virtual printer, its pure thermal model and its print-host style routes.
 *
 * @module
 */
export {
  AMBIENT_C,
  type HeaterParams,
  HEATERS,
  type HeaterState,
  stepHeater,
  timeToReach,
} from "./thermal.ts";
export { type JobStatus, VirtualPrinter, type VirtualPrinterOptions } from "./virtual_printer.ts";
export { printerRoutes } from "./api.ts";
