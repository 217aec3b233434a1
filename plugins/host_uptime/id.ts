/** The plugin's id (its folder's name), written only here: all else in the folder derives it. */
export const PLUGIN_ID = "host_uptime";
