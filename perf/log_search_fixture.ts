/**
 * The log file of the log search benchmark: OctoPrint-style lines
 * (`YYYY-MM-DD HH:MM:SS,mmm - logger - LEVEL - message`) with UTF-8 `°` on about 8% of the lines,
 * ERROR entries followed by a Python traceback, a term on 1% of the lines ("checksum mismatch")
 * and a few rare lines (20 CRITICAL entries, 20 "timeout after N retries") so that the level
 * filter and the regex case scan the whole file. Deterministic: the same size gives the same file.
 *
 * @module
 */
import { prng } from "../tests/doubles/_lmstudio_gen.ts";

/** The term on about 1% of the lines (the early-stop case). */
export const ONE_PERCENT_TERM = "checksum mismatch";
/** A text that never occurs (the full-scan cases). */
export const NEVER_TERM = "Zq-never-Occurs-qZ";
/** A regex with fewer matches than one page (the regex case scans the whole file). */
export const RARE_REGEX = "timeout after [0-9]+ retries";
/**
 * A regex without fixed text (no piece of 3 characters every match holds), so it runs on RE2
 * over every line; it matches the rare "timeout after N retries" lines only.
 */
export const LITERAL_FREE_REGEX = "t[a-z]+ [a-z]+ [0-9] r";
/** Case-insensitive texts with letters beyond ASCII (none occurs: the whole file is scanned). */
export const NON_ASCII_TERMS = ["über", "привет", "ωμέγα"];
/** How many CRITICAL entries and rare-regex lines the file holds. */
export const RARE_COUNT = 20;

const LOGGERS = [
  "octoprint.server",
  "octoprint.util.comm",
  "octoprint.plugins.temp_eta",
  "octoprint.plugin.core",
  "octoprint.filemanager",
  "octoprint.plugins.logmonitor",
];

function stamp(i: number): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const s = Math.floor(i / 40);
  return `2026-03-${p(1 + Math.floor(s / 86400) % 28)} ${p(Math.floor(s / 3600) % 24)}:` +
    `${p(Math.floor(s / 60) % 60)}:${p(s % 60)},${p((i * 25) % 1000, 3)}`;
}

const TRACEBACK = [
  "Traceback (most recent call last):",
  '  File "/home/pi/oprint/lib/python3.11/site-packages/octoprint/plugin/__init__.py", line 273, in call_plugin',
  "    result = getattr(plugin, method)(*args, **kwargs)",
  '  File "/home/pi/oprint/lib/python3.11/site-packages/octoprint_temp_eta/__init__.py", line 412, in on_event',
  "    self._calc.update(heater, actual, target)",
  "ValueError: heater reading out of range",
];

/** One entry (one or more lines, each ending in `\n`). */
function entry(i: number, r: () => number, rareAt: Set<number>, critAt: Set<number>): string {
  const ts = stamp(i);
  const logger = LOGGERS[i % LOGGERS.length]!;
  if (critAt.has(i)) return `${ts} - ${logger} - CRITICAL - Printer halted: thermal runaway\n`;
  if (rareAt.has(i)) {
    return `${ts} - octoprint.util.comm - WARNING - Serial timeout after ${3 + (i % 5)} retries\n`;
  }
  const x = r();
  if (x < 0.01) {
    return `${ts} - octoprint.util.comm - WARNING - Resend requested: ${ONE_PERCENT_TERM} on line ${i}\n`;
  }
  if (x < 0.09) {
    const t = (20 + (i % 1900) / 10).toFixed(1);
    return `${ts} - octoprint.plugins.temp_eta - DEBUG - tool0 at ${t}°C, target 210.0°C, rate 1.${
      i % 10
    } K/s\n`;
  }
  if (x < 0.095) {
    return `${ts} - ${logger} - ERROR - Error while calling hook on_event for ${i}\n` +
      TRACEBACK.join("\n") + "\n";
  }
  if (x < 0.2) return `${ts} - octoprint.util.comm - WARNING - Printer did not respond ${i}\n`;
  if (x < 0.45) return `${ts} - octoprint.util.comm - DEBUG - Send: N${i} M105*${i % 97}\n`;
  return `${ts} - ${logger} - INFO - Request ${i} from 10.0.${i % 256}.${
    (i >> 8) % 256
  } handled in ${i % 97} ms\n`;
}

/**
 * Writes a log of about `bytes` bytes (never more) to `path`.
 *
 * @returns the number of entries written.
 */
export async function writeBenchLog(path: string, bytes: number): Promise<number> {
  const r = prng(42);
  const approxEntries = Math.floor(bytes / 95);
  const pick = (seed: number) => {
    const p = prng(seed);
    return new Set(
      Array.from({ length: RARE_COUNT }, () => Math.floor(p() * approxEntries * 0.97)),
    );
  };
  const rareAt = pick(7);
  const critAt = pick(11);
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  let written = 0;
  let i = 0;
  try {
    while (true) {
      let block = "";
      for (let k = 0; k < 20_000; k++, i++) block += entry(i, r, rareAt, critAt);
      let chunk = enc.encode(block);
      if (written + chunk.length > bytes) {
        const cut = chunk.subarray(0, bytes - written).lastIndexOf(0x0a);
        chunk = chunk.subarray(0, cut + 1);
        await file.write(chunk);
        return i;
      }
      await file.write(chunk);
      written += chunk.length;
    }
  } finally {
    file.close();
  }
}
