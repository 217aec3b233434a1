import assert from "node:assert/strict";
import { hashPassword, verifyPassword } from "../../../../lib/host/mod.ts";

Deno.test("passwords are salted scrypt hashes that verify only the right password", async () => {
  const a = await hashPassword("pw");
  const b = await hashPassword("pw");
  assert.notEqual(a, b);
  assert.ok(await verifyPassword("pw", a));
  assert.ok(!(await verifyPassword("pw2", a)));
  assert.ok(!(await verifyPassword("pw", "plain")));
});
