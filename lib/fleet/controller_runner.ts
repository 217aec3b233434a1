/**
 * The agent's benchmark runner: the dashboard's own {@linkcode BenchmarkController} (the same
 * argument resolver, model-server connection, job and events), so a job sent to an agent runs
 * exactly as one started on that machine's dashboard would. A job ends with the controller's
 * closing `idle` status: completed or stopped resolve with the outcome, failed rejects with it.
 *
 * @module
 */
import type { BenchmarkController } from "../dashboard/controller.ts";
import type { Outcome } from "../dashboard/status.ts";
import type { AgentEvent, AgentRunner } from "./agent.ts";

/** Why a job's benchmark failed: the controller's outcome, kept for the job's output. */
export class BenchmarkFailedError extends Error {
  constructor(readonly outcome: Outcome) {
    super(outcome.error ?? `The benchmark failed (${outcome.failed} model(s) failed)`);
    this.name = "BenchmarkFailedError";
  }
}

/** An {@linkcode AgentRunner} over `controller`. */
export function controllerRunner(controller: BenchmarkController): AgentRunner {
  return {
    async run(args: string[], emit: (event: AgentEvent) => void, signal: AbortSignal) {
      let finish: (outcome: Outcome | null) => void = () => {};
      const ended = new Promise<Outcome | null>((resolve) => finish = resolve);
      let started = false;
      const unsubscribe = controller.events.subscribe(({ event: data }) => {
        emit(data as AgentEvent);
        if (started && data.type === "status" && data.status === "idle") finish(data.outcome);
      }, null);
      const abort = () => void controller.stop().catch(() => {});
      signal.addEventListener("abort", abort);
      try {
        await controller.start(args);
        started = true;
        if (controller.status().status === "idle") finish(controller.status().outcome);
        const outcome = await ended;
        if (!outcome) return { outcome: "stopped" };
        if (outcome.outcome === "failed") throw new BenchmarkFailedError(outcome);
        return outcome;
      } finally {
        signal.removeEventListener("abort", abort);
        unsubscribe();
      }
    },
  };
}
