import assert from "node:assert/strict";
import { defaultPermissionFor, hasPermission, parsePermissions } from "../../../lib/host/mod.ts";

Deno.test("ADMIN implies every permission while others stand alone", () => {
  assert.ok(hasPermission(["ADMIN"], "SETTINGS"));
  assert.ok(hasPermission(["STATUS", "CONTROL"], "CONTROL"));
  assert.ok(!hasPermission(["STATUS"], "CONTROL"));
  assert.equal(defaultPermissionFor("GET"), "STATUS");
  assert.equal(defaultPermissionFor("DELETE"), "CONTROL");
});

Deno.test("parsePermissions() accepts any case and rejects unknown names", () => {
  assert.deepEqual(parsePermissions("status, Control,STATUS"), ["STATUS", "CONTROL"]);
  assert.throws(() => parsePermissions("root"), /Unknown permission 'root'/);
  assert.throws(() => parsePermissions(" , "), /empty/);
});
