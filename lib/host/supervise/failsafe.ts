/**
 * The plugins' failsafes while the host is down (see {@linkcode PluginDescriptor.failsafe}): the
 * launcher's side reads the stored settings as the host would and runs each failsafe that is due
 * in a process allowed to reach the plugin's own destinations only; the process's side
 * (`script --failsafe PLUGIN`, settings on its standard input) applies it.
 *
 * @module
 */
import { UsageError } from "../../error.ts";
import { storedPluginSettings } from "../launch.ts";
import { HOST_ENV_VARS, resolveHostPaths } from "../paths.ts";
import type { FailsafeOutcome, PluginDescriptor } from "../plugin.ts";
import { envOf, runNetProcess } from "./child_processes.ts";
import type { DownFailsafe } from "./supervisor.ts";
import { isPlainObject } from "../../shared/json_object.ts";

/** Longest run of a failsafe process. */
export const FAILSAFE_PROCESS_TIMEOUT_MS = 30_000;

/**
 * The failsafes of the settings in config.yaml: one per plugin that declares one, has a delay
 * with these settings and a destination to reach.
 */
export async function pluginFailsafes(
  script: string,
  plugins: PluginDescriptor[],
): Promise<DownFailsafe[]> {
  const { configFile } = resolveHostPaths(envOf(HOST_ENV_VARS));
  const settings = await storedPluginSettings(configFile, plugins);
  const out: DownFailsafe[] = [];
  for (const p of plugins) {
    const values = settings.get(p.id)!;
    const delay = p.failsafe?.delaySeconds(values) ?? null;
    const net = p.networkHosts?.(values) ?? [];
    if (delay === null || net.length === 0) continue;
    out.push({
      name: p.name,
      delayMs: delay * 1000,
      apply: async () => {
        const result = await runNetProcess(script, ["--failsafe", p.id], net, {
          input: JSON.stringify(values),
          timeoutMs: FAILSAFE_PROCESS_TIMEOUT_MS,
        });
        return {
          ok: result.ok === true,
          message: typeof result.message === "string" ? result.message : "no message",
        };
      },
    });
  }
  return out;
}

/** The failsafe process's side: applies `[plugin]`'s failsafe to the settings read from `input`. */
export async function runFailsafe(
  plugins: readonly PluginDescriptor[],
  [pluginId]: string[],
  input: ReadableStream<Uint8Array> = Deno.stdin.readable,
): Promise<FailsafeOutcome> {
  const plugin = plugins.find((p) => p.id === pluginId);
  if (!plugin?.failsafe) throw new UsageError(`No failsafe in plugin '${pluginId}'`);
  const settings = await new Response(input).json();
  if (!isPlainObject(settings)) throw new UsageError("Cannot apply a failsafe: no settings");
  return await plugin.failsafe.apply(settings);
}
