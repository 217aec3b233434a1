/**
 * How the Marlin simulator (`marlin_sim.ts`) checks a received line, as Marlin 2.1's serial queue
 * does: a line that starts with `N<n>` must carry the next number (`M110 N<n>` sets it instead) and
 * a checksum `*<cs>`, the XOR of every byte before the `*`. The number is checked first, then the
 * checksum. Lines without `N` are taken as they are. A `;` starts a comment.
 *
 * Also the emergency parser's view of a line: `M108`, `M112` and `M410` act as soon as they arrive.
 *
 * @module
 */

/** Why a line was refused; each answers `Error:<text>, Last Line: n`, `Resend: n+1`, `ok`. */
export type LineFault = "line-number" | "checksum" | "no-checksum";

/** The text of each refusal, as Marlin prints it after `Error:`. */
export const FAULT_TEXT: Record<LineFault, string> = {
  "line-number": "Line Number is not Last Line Number+1, Last Line: ",
  "checksum": "checksum mismatch, Last Line: ",
  "no-checksum": "No Checksum with line number, Last Line: ",
};

/** A checked line: the command to run and the new last line number, or why it was refused. */
export type Checked =
  | { ok: true; command: string; lastN: number }
  | { ok: false; fault: LineFault };

/** The XOR of the bytes of `text` (Marlin's line checksum). */
export function checksum(text: string): number {
  let cs = 0;
  for (let i = 0; i < text.length; i++) cs ^= text.charCodeAt(i) & 0xff;
  return cs;
}

/** Checks `line` (without its end of line) against the last accepted number `lastN`. */
export function checkLine(line: string, lastN: number): Checked {
  const text = line.replace(/;.*$/, "").trimStart();
  if (!text.startsWith("N")) return { ok: true, command: text.trim(), lastN };
  const m110 = /M110\b/.test(text) ? /M110\b.*?N(-?\d+)/.exec(text) : null;
  const n = Number.parseInt((m110?.[1] ?? /^N(-?\d*)/.exec(text)?.[1]) || "0", 10);
  if (!m110 && !/M110\b/.test(text) && n !== lastN + 1) return { ok: false, fault: "line-number" };
  const star = text.lastIndexOf("*");
  if (star < 0) return { ok: false, fault: "no-checksum" };
  if (Number.parseInt(text.slice(star + 1), 10) !== checksum(text.slice(0, star))) {
    return { ok: false, fault: "checksum" };
  }
  const command = text.slice(0, star).replace(/^N-?\d*\s*/, "").trim();
  return { ok: true, command, lastN: n };
}

/** The emergency command a line carries (`M108`, `M112`, `M410`), line number allowed. */
export function emergencyCommand(line: string): "M108" | "M112" | "M410" | null {
  const match = /^\s*(?:N-?\d+\s*)?(M108|M112|M410)(?![0-9.])/.exec(line);
  return (match?.[1] as "M108" | "M112" | "M410" | undefined) ?? null;
}

/** The code (`G1`, `M104`, `T0`), its parameters (`S` → `"210"`) and the text after the code. */
export function parseCommand(command: string): ParsedCommand {
  const head = /^([A-Za-z])(\d+)/.exec(command);
  if (!head) return { code: command.split(/\s/)[0]!.toUpperCase(), params: new Map(), rest: "" };
  const rest = command.slice(head[0].length).trim();
  const params = new Map<string, string>();
  for (const m of rest.matchAll(/([A-Za-z])([-+.\d]*)/g)) params.set(m[1]!.toUpperCase(), m[2]!);
  return { code: `${head[1]!.toUpperCase()}${Number(head[2])}`, params, rest };
}

/** A command split by {@linkcode parseCommand}. */
export interface ParsedCommand {
  code: string;
  params: Map<string, string>;
  /** Everything after the code (a file name for `M23`). */
  rest: string;
}
