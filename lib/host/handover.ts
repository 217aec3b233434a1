/**
 * State the plugins carry across a planned restart of the host (the launcher restarting it under
 * a wider scope): written to `<hostDir>/handover.json` (mode 0600) after the plugins' planned
 * shutdown, read and removed at the resumed start. A real stop writes nothing, and a start that
 * is not resumed removes a stale file unread.
 *
 * @module
 */
import { messageOf } from "../error.ts";
import { writeFileAtomic } from "../fs.ts";
import type { Logger } from "../log.ts";
import type { Handover } from "./plugin.ts";
import { isPlainObject } from "../shared/json_object.ts";

/** The file's name in the host folder. */
export const HANDOVER_NAME = "handover.json";

/** The host's own entry in the handover (its sessions); no plugin may take this id. */
export const HOST_HANDOVER = "host";

/** The handover file and the states of one run. */
export class HandoverFile {
  readonly #path: string;
  readonly #logger: Logger;
  #previous: Record<string, unknown> = {};
  #next: Record<string, unknown> = {};

  constructor(path: string, logger: Logger) {
    this.#path = path;
    this.#logger = logger;
  }

  /** Reads the previous run's states when `resumed`; removes the file either way. */
  async load(resumed: boolean): Promise<void> {
    this.#previous = {};
    let text: string | null = null;
    try {
      text = await Deno.readTextFile(this.#path);
      await Deno.remove(this.#path);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) {
        this.#logger.warn(`Cannot read the handover of the previous run: ${messageOf(err)}`);
      }
    }
    if (!resumed || text === null) return;
    try {
      const value = JSON.parse(text);
      if (isPlainObject(value)) this.#previous = value;
    } catch {
      this.#logger.warn("Ignoring the handover of the previous run: it is not valid JSON");
    }
  }

  /** The handover of one plugin. */
  of(id: string): Handover {
    return {
      get: () => structuredClone(this.#previous[id]),
      set: (state) => {
        this.#next[id] = structuredClone(state);
      },
    };
  }

  /** Writes the states set during this run's planned shutdown (atomically, 0600). */
  async save(): Promise<void> {
    if (Object.keys(this.#next).length === 0) return;
    try {
      await writeFileAtomic(this.#path, JSON.stringify(this.#next), { mode: 0o600, mkdir: true });
    } catch (err) {
      this.#logger.warn(`Cannot hand state over to the next run: ${messageOf(err)}`);
    }
  }
}
