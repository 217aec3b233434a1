/**
 * The fleet at the dashboard's web edge: what `GET /api/fleet` answers and how
 * `POST /api/benchmark/start` with `"machine"` is routed. A dashboard on a SQLite store has no
 * fleet: it lists none and says why, and a job for another machine is refused.
 *
 * @module
 */
import { badRequest, ConflictError } from "../error.ts";
import type { FleetAgentView, FleetService } from "./service.ts";

/** `GET /api/fleet`. */
export interface FleetAnswer {
  /** Whether this dashboard can send jobs to agents (its store is PostgreSQL). */
  available: boolean;
  /** Why not, when it cannot. */
  reason: string | null;
  agents: FleetAgentView[];
}

/** Why a dashboard without a fleet has none. */
export const NO_FLEET =
  "The fleet needs the shared PostgreSQL store: start the dashboard with --store postgres://…";

/** The answer of `GET /api/fleet`. */
export async function fleetAnswer(fleet: FleetService | null | undefined): Promise<FleetAnswer> {
  if (!fleet) return { available: false, reason: NO_FLEET, agents: [] };
  return { available: true, reason: null, agents: await fleet.agents() };
}

/**
 * The machine a start body names: null for this machine (absent, empty or `"local"`), else the
 * agent's name. The key is taken out of the body (it is not a benchmark argument).
 */
export function takeMachine(body: Record<string, unknown>): string | null {
  const machine = body.machine;
  delete body.machine;
  if (machine === undefined || machine === null || machine === "" || machine === "local") {
    return null;
  }
  if (typeof machine !== "string") {
    throw badRequest("Argument 'machine' must be an agent's name (or \"local\")");
  }
  return machine;
}

/** The fleet, or the conflict of a dashboard that has none. */
export function requireFleet(fleet: FleetService | null | undefined): FleetService {
  if (!fleet) throw new ConflictError(NO_FLEET, { code: "fleet_unavailable" });
  return fleet;
}
