import assert from "node:assert/strict";
import {
  hostNameOf,
  isWildcard,
  listenHostNames,
  parseHostList,
} from "../../../lib/http/host_allow.ts";
import { safeLocalPath } from "../../../lib/http/redirect.ts";

const machine = {
  addresses: () => ["192.168.1.5", "fe80::1", "127.0.0.1"],
  hostname: () => "Bench",
};

Deno.test("hostNameOf() drops the port, brackets, case and a final dot", () => {
  assert.equal(hostNameOf("LocalHost:8080"), "localhost");
  assert.equal(hostNameOf("[::1]:80"), "::1");
  assert.equal(hostNameOf("example.org."), "example.org");
  assert.equal(hostNameOf("127.0.0.1"), "127.0.0.1");
});

Deno.test("listenHostNames() answers to loopback names, the address itself and the extras", () => {
  const local = listenHostNames("127.0.0.1", { machine, extra: ["Bench.LAN:9"] });
  assert.deepEqual([...local].sort(), ["127.0.0.1", "::1", "bench.lan", "localhost"]);
  const v6 = listenHostNames("::1", { machine });
  assert.ok(v6.has("::1") && v6.has("localhost"));
  const lan = listenHostNames("192.168.1.5", { machine });
  assert.ok(lan.has("192.168.1.5") && !lan.has("bench"), "a specific address: no machine names");
});

Deno.test("listenHostNames() on a wildcard adds every interface address and the host name", () => {
  assert.ok(isWildcard("0.0.0.0") && isWildcard("[::]") && !isWildcard("127.0.0.1"));
  const all = listenHostNames("0.0.0.0", { machine });
  for (const n of ["192.168.1.5", "fe80::1", "bench", "bench.local", "localhost"]) {
    assert.ok(all.has(n), n);
  }
  assert.equal(all.has("evil.example"), false);
  const blind = listenHostNames("::", { machine: { addresses: () => [], hostname: () => "" } });
  assert.deepEqual([...blind].sort(), ["127.0.0.1", "::1", "localhost"]);
});

Deno.test("parseHostList() splits on commas and drops blanks", () => {
  assert.deepEqual(parseHostList(" a.lan, ,b.lan,"), ["a.lan", "b.lan"]);
  assert.deepEqual(parseHostList(undefined), []);
});

Deno.test("safeLocalPath() keeps same-origin paths and refuses whatever a browser reads as another site", () => {
  assert.equal(safeLocalPath("/plugins/power?a=1#x", "/d"), "/plugins/power?a=1#x");
  assert.equal(safeLocalPath("/a/../b", "/d"), "/b");
  for (
    const bad of [
      undefined,
      "",
      "plugins",
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example/x",
      "/\n/evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "/" + "a".repeat(3000),
    ]
  ) {
    assert.equal(safeLocalPath(bad, "/d"), "/d", JSON.stringify(bad));
  }
});
