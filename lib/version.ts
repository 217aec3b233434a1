/** The tool's version (reports, exports and the dashboard show it). */
export const VERSION = "0.1.0";
