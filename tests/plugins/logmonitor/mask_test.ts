import assert from "node:assert/strict";
import { maskText } from "../../../plugins/logmonitor/mask.ts";

Deno.test("maskText() redacts keys, passwords, e-mails and bearer tokens", () => {
  assert.equal(maskText("X-Api-Key: abcdef123"), "X-Api-Key: [REDACTED]");
  assert.equal(maskText("api_key=abc123 rest"), "api_key: [REDACTED] rest");
  assert.equal(maskText("password=hunter2"), "password: [REDACTED]");
  assert.equal(maskText("mail me@example.org now"), "mail [EMAIL REDACTED] now");
  assert.equal(maskText("Authorization: Bearer abcdefgh12345"), "Authorization: Bearer [REDACTED]");
  assert.equal(maskText("nothing secret"), "nothing secret");
});
