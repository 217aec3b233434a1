/**
 * The embedded virtual printer, its pure thermal model and the print-host style routes: the
 * printer's, the job's and the uploaded files'.
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
export { fileRoutes, UPLOAD_PATH } from "./files_api.ts";
export { jobBody, jobRoutes } from "./job_api.ts";
export { STATE_TEXT, stateOf } from "./state_text.ts";
