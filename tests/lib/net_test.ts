import assert from "node:assert/strict";
import { findFreePort, isLoopback } from "../../lib/net.ts";

Deno.test("every spelling of a loopback address is loopback, and nothing else is", () => {
  for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "LocalHost", "::1", "[::1]"]) {
    assert.ok(isLoopback(h), h);
  }
  for (const h of ["0.0.0.0", "::", "", "192.168.1.2", "127.0.0.1.nip.io", "localhost.", "::2"]) {
    assert.ok(!isLoopback(h), h);
  }
});

Deno.test("a free port can be bound right after it is found", async () => {
  const port = await findFreePort();
  const listener = Deno.listen({ hostname: "127.0.0.1", port });
  assert.equal((listener.addr as Deno.NetAddr).port, port);
  listener.close();
});
