/**
 * The tray controller: `deno task tray [--url URL] [--token T] [--timeout S] [--debug]`.
 * A tray icon whose colour follows the dashboard's benchmark status and whose menu drives it
 * (see lib/tray/).
 *
 * @module
 */
import { runTray, systemTrayDeps } from "./lib/tray/mod.ts";

if (import.meta.main) {
  const deps = systemTrayDeps();
  deps.onOpen = (adapter) => {
    const close = () => void adapter.close();
    Deno.addSignalListener("SIGINT", close);
    Deno.addSignalListener("SIGTERM", close);
  };
  Deno.exit(await runTray(Deno.args, deps));
}
