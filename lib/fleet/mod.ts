/**
 * The fleet: agents on other machines that take benchmark jobs from a queue in the shared
 * PostgreSQL store (pg-boss), their register with heartbeats, and their live progress (NOTIFY).
 *
 * @module
 */
export { type AgentEvent, type AgentRunner, FleetAgent, type FleetAgentOptions } from "./agent.ts";
export { BenchmarkFailedError, controllerRunner } from "./controller_runner.ts";
export { AGENT_USAGE, type AgentArgs, parseAgentArgs } from "./agent_args.ts";
export { type AgentMainDeps, runAgent } from "./agent_main.ts";
export { agentQueue, checkAgentName } from "./names.ts";
export {
  CHANNEL,
  type FleetProgress,
  listenProgress,
  progressPayload,
  ProgressPublisher,
  publishProgress,
} from "./progress.ts";
export {
  type FleetJobData,
  type FleetJobInfo,
  FleetQueue,
  type FleetQueueOptions,
} from "./queue.ts";
export { type AgentRow, FleetRegistry, type SqlClient } from "./registry.ts";
export { type FleetAnswer, fleetAnswer, NO_FLEET, requireFleet, takeMachine } from "./web.ts";
export { type FleetAgentView, FleetService, type FleetServiceOptions } from "./service.ts";
