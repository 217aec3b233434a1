/**
 * The plugin's id: the name of its folder, written here only. Everything in the folder that
 * names the plugin derives from it: the descriptor, the route bases, the settings form, the push
 * messages, the islands' endpoints (the build names the islands `<id>/<File>`) and the
 * environment variables' prefix. A copy of the folder under a new name changes this line.
 *
 * @module
 */

/** The plugin's id. */
export const PLUGIN_ID = "logmonitor";
