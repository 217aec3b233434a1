/**
 * Every page of the plugin host (this folder and each plugin's pages mounted below it): signed
 * in with a session (or an API key) holding STATUS, else a browser goes to the login page.
 *
 * @module
 */
import { requireSignIn } from "../../lib/host/mod.ts";

/** The host's sign-in. */
export default requireSignIn();
