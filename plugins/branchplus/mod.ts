/**
 * The branch power controller plugin (`branchplus`): reads and switches the ten power channels of
 * a network power hub over its JSON WebSocket, with per-channel mode, label, rule matrix,
 * temperature rule and failsafe.
 *
 * @module
 */
export { API_BASE, BranchController, plugin } from "./plugin.ts";
export type { BranchInstance, BranchSettings, BranchStatus } from "./plugin.ts";
