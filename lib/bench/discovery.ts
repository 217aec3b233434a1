/**
 * Discovery: the model list from `lms ls --json` (SDK mode, when `lms` is installed) or from the
 * backend's own list (`GET /api/v1/models`, `/v1/models`, the SDK). Every variant is a target,
 * named by its identity whatever the list it came from (see `variantIdentity`).
 *
 * @module
 */
import {
  type Backend,
  type LmsCli,
  type LmsModelEntry,
  type ModelInfo,
  modelsFromSdkEntries,
} from "../modelserver/mod.ts";
import { type Target, targetOf } from "./target.ts";

/** Turns `lms ls --json` entries into model entries, one per variant. */
export function modelsFromLms(entries: LmsModelEntry[]): ModelInfo[] {
  return modelsFromSdkEntries(entries);
}

/**
 * Lists the language-model targets; every other model the server has (an embedding model) goes
 * to `onOther`, so the benchmark can say it leaves it out.
 */
export async function discoverTargets(
  backend: Backend,
  lms: LmsCli | null,
  onOther: (model: ModelInfo) => void = () => {},
): Promise<Target[]> {
  const models = backend.kind === "sdk" && lms
    ? modelsFromLms(await lms.ls())
    : await backend.listModels();
  const seen = new Set<string>();
  const targets: Target[] = [];
  for (const m of models) {
    const t = targetOf(m, backend.kind);
    if (t === null && !seen.has(m.key)) {
      seen.add(m.key);
      onOther(m);
    } else if (t && !seen.has(t.key)) {
      seen.add(t.key);
      targets.push(t);
    }
  }
  return targets;
}
