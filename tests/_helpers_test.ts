import assert from "node:assert/strict";
import { systemProgram } from "./_helpers.ts";

Deno.test("systemProgram() finds mosquitto in /usr/sbin with a user's PATH that lacks it", () => {
  assert.equal(systemProgram("mosquitto", "/usr/local/bin:/usr/bin:/bin"), "/usr/sbin/mosquitto");
  assert.equal(systemProgram("no-such-program-here", "/usr/bin"), "no-such-program-here");
});
