/**
 * The plugin's sound files: where they live (`static/sounds/`), which file a `*_sound_file`
 * setting means, and the generator of the two default sounds. Run this file to (re)write them:
 * `deno run --allow-write plugins/temp_eta/sounds.ts`.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isPlainName } from "../../lib/named_file.ts";
import { PLUGIN_ID } from "./id.ts";
import { encodeWav, synthesise, type Tone } from "./wav.ts";

/** The folder of the sound files (a path: names are joined to it, never parsed as URLs). */
export const SOUNDS_DIR: string = fileURLToPath(new URL("./static/sounds/", import.meta.url));

/** The names a sound file may have (the route serves nothing else). */
export const SOUND_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*\.(wav|mp3|ogg)$/;

/** The URL path under which the plugin serves its static folder. */
export const STATIC_BASE = `/plugin/${PLUGIN_ID}/static`;

/** Sample rate of the generated sounds. */
export const SOUND_SAMPLE_RATE = 16000;

/** The generated default sounds: file name → tones. */
export const DEFAULT_SOUNDS: Readonly<Record<string, readonly Tone[]>> = {
  "heating_done.wav": [
    { frequency: 660, seconds: 0.12 },
    { frequency: 0, seconds: 0.05 },
    { frequency: 880, seconds: 0.18 },
  ],
  "cooling_done.wav": [
    { frequency: 880, seconds: 0.12 },
    { frequency: 0, seconds: 0.05 },
    { frequency: 523, seconds: 0.18 },
  ],
};

/** The file `default` stands for, per event kind. */
const DEFAULT_FILE = { heating: "heating_done.wav", cooling: "cooling_done.wav" } as const;

/** True when `name` is a plain sound file name ({@linkcode SOUND_NAME}) present in the folder. */
export function soundFileExists(name: string): boolean {
  if (!isPlainName(name) || !SOUND_NAME.test(name)) return false;
  if (Object.hasOwn(DEFAULT_SOUNDS, name)) return true;
  try {
    return Deno.lstatSync(join(SOUNDS_DIR, name)).isFile;
  } catch {
    return false;
  }
}

/** The choices of a `*_sound_file` setting: `default`, the default sounds and the folder's files. */
export function soundChoices(): string[] {
  const files = new Set(Object.keys(DEFAULT_SOUNDS));
  try {
    for (const entry of Deno.readDirSync(SOUNDS_DIR)) {
      if (entry.isFile && SOUND_NAME.test(entry.name)) files.add(entry.name);
    }
  } catch (err) {
    // Not readable (the permission-scoped host reads only what it was granted): the defaults.
    if (!(err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotCapable)) throw err;
  }
  return ["default", ...[...files].sort()];
}

/** The file name a `heating_sound_file` / `cooling_sound_file` setting stands for. */
export function soundFileName(kind: "heating" | "cooling", setting: string): string {
  return setting === "default" || setting === "" ? DEFAULT_FILE[kind] : setting;
}

/** The URL path of a sound file served by the plugin's static route. */
export function soundUrl(kind: "heating" | "cooling", setting: string): string {
  return `${STATIC_BASE}/sounds/${encodeURIComponent(soundFileName(kind, setting))}`;
}

/** The bytes of a default sound, generated. */
export function renderDefaultSound(name: string): Uint8Array {
  const tones = DEFAULT_SOUNDS[name];
  if (!tones) throw new RangeError(`Cannot render sound '${name}': not a default sound`);
  return encodeWav(synthesise(tones, SOUND_SAMPLE_RATE), SOUND_SAMPLE_RATE);
}

if (import.meta.main) {
  for (const name of Object.keys(DEFAULT_SOUNDS)) {
    Deno.writeFileSync(join(SOUNDS_DIR, name), renderDefaultSound(name));
  }
}
