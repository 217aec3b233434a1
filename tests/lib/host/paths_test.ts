import assert from "node:assert/strict";
import { resolveHostPaths } from "../../../lib/host/mod.ts";

Deno.test("resolveHostPaths() prefers overrides, then LOCALBENCH_*, then XDG defaults", () => {
  const xdg = resolveHostPaths({ HOME: "/h", XDG_DATA_HOME: "/x" });
  assert.equal(xdg.hostDir, "/x/localbench/host");
  assert.equal(xdg.configFile, "/x/localbench/host/config.yaml");
  assert.equal(xdg.configDir, "/h/.config/localbench");
  const env = resolveHostPaths({
    HOME: "/h",
    LOCALBENCH_DATA_DIR: "/d",
    LOCALBENCH_LOG_DIR: "/logs",
  });
  assert.equal(env.logDir, "/logs");
  assert.equal(resolveHostPaths({ HOME: "/h" }, { dataDir: "/o" }).logDir, "/o/host/logs");
});
