import assert from "node:assert/strict";
import { UsageError } from "../../../lib/error.ts";
import { agentQueue, checkAgentName } from "../../../lib/fleet/names.ts";

Deno.test("checkAgentName takes host-like names", () => {
  for (const name of ["gpu-box", "laptop.local", "node_7", "A"]) {
    assert.equal(checkAgentName(name), name);
  }
});

Deno.test("checkAgentName refuses names that are paths, empty, too long or not ASCII", () => {
  for (const name of ["", "../x", "a/b", "-lead", "a b", "ü", "x".repeat(64), "a;DROP"]) {
    assert.throws(
      () => checkAgentName(name),
      (e) => e instanceof UsageError && e.code === "invalid_agent_name",
    );
  }
});

Deno.test("agentQueue names the agent's own pg-boss queue", () => {
  assert.equal(agentQueue("gpu-box"), "localbench.agent.gpu-box");
  assert.throws(() => agentQueue("a/b"));
});
