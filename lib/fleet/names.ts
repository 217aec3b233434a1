/**
 * Agent names: what a user types after `--name` and picks on the Benchmark page. A name is also
 * part of its job queue's name, so it keeps to letters, digits, `.`, `_` and `-`.
 *
 * @module
 */
import { UsageError } from "../error.ts";

const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/**
 * The agent name `name`, or a `UsageError` saying what a name may hold.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkAgentName } from "./names.ts";
 * assert.equal(checkAgentName("gpu-box"), "gpu-box");
 * assert.throws(() => checkAgentName("../etc"));
 * ```
 */
export function checkAgentName(name: string): string {
  if (!AGENT_NAME.test(name)) {
    throw new UsageError(
      `Cannot use '${name.slice(0, 80)}' as an agent name: use 1 to 63 letters, digits, '.', ` +
        "'_' or '-', starting with a letter or digit",
      { code: "invalid_agent_name" },
    );
  }
  return name;
}

/** The job queue of the agent `name` (pg-boss queue names allow these characters). */
export function agentQueue(name: string): string {
  return `localbench.agent.${checkAgentName(name)}`;
}
