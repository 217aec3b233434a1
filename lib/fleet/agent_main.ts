/**
 * `deno task agent`: runs this machine as a fleet agent until Ctrl-C (or SIGTERM). It opens the
 * shared store, registers under its name, takes the jobs sent to it and runs each with the
 * dashboard's benchmark controller against this machine's model server; a stop lets the job under
 * way end first. Nothing listens on a port.
 *
 * @module
 */
import type pg from "pg";
import type { ServerFacts } from "../bench/mod.ts";
import type { EnvReader } from "../config/mod.ts";
import { localController } from "../dashboard/local_controller.ts";
import { messageOf, UsageError } from "../error.ts";
import { connectionOf, type MachineRecord, type ResultsStore } from "../store/mod.ts";
import { FleetAgent } from "./agent.ts";
import { AGENT_USAGE, parseAgentArgs } from "./agent_args.ts";
import { controllerRunner } from "./controller_runner.ts";
import { FleetQueue } from "./queue.ts";

/** What the agent's entry needs from the outside (tests pass their own). */
export interface AgentMainDeps {
  env: EnvReader;
  /** Opens the store at a PostgreSQL URL. */
  openStore(url: string): ResultsStore;
  /**
   * Captures this machine (lib/bench/machine.ts `captureMachine`): at start for the fleet view
   * (no model server yet), and at each job for its results.
   */
  machine(server?: ServerFacts): Promise<MachineRecord>;
  /** Resolves when the agent must stop (Ctrl-C, SIGTERM). */
  stopRequested(): Promise<void>;
  say(line: string): void;
}

/** Runs the agent; resolves with the exit code once it stopped. */
export async function runAgent(argv: string[], deps: AgentMainDeps): Promise<number> {
  const args = parseAgentArgs(argv, deps.env, () => Deno.hostname());
  if (args.help) {
    deps.say(AGENT_USAGE);
    return 0;
  }
  if (!args.store || !/^postgres(ql)?:\/\//i.test(args.store)) {
    throw new UsageError(
      "The agent needs the shared PostgreSQL store: pass --store postgres://user:password@" +
        "host:5432/db (or set LOCALBENCH_STORE)",
      { code: "store_required" },
    );
  }
  const store = deps.openStore(args.store);
  const { default: { Pool } } = await import("pg"); // with the agent only
  const pool: pg.Pool = new Pool({ ...connectionOf(args.store), max: 3 });
  pool.on(
    "error",
    (err: unknown) => deps.say(`agent ${args.name}: database connection lost (${messageOf(err)})`),
  );
  let queue: FleetQueue | null = null;
  let agent: FleetAgent | null = null;
  try {
    queue = await FleetQueue.start(args.store, {
      heartbeatSeconds: args.heartbeatSeconds,
      onError: (err) => deps.say(`agent ${args.name}: queue: ${messageOf(err)}`),
    });
    const controller = localController({
      store,
      env: deps.env,
      baseArgs: args.benchArgs,
      say: deps.say,
      machine: (server) => deps.machine(server),
    });
    agent = await FleetAgent.start({
      name: args.name,
      machine: { ...await deps.machine() },
      owner: store.owner,
      runner: controllerRunner(controller),
      sql: pool,
      queue,
      liveSeconds: args.heartbeatSeconds,
      say: deps.say,
    });
    await deps.stopRequested();
    deps.say(`agent ${args.name}: stopping (a job under way ends first)`);
    await agent.stop();
    await controller.shutdown();
    return 0;
  } finally {
    if (!agent) await queue?.stop({ graceful: false }).catch(() => {});
    await pool.end().catch(() => {});
    store.close();
  }
}
