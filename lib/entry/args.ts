/**
 * Argument handling of the entry script: short-flag clusters, the web-app flag and the port.
 *
 * @module
 */

/** Letters of the entry script's own short flags that may be combined (`-wd`). */
const CLUSTER_LETTERS = new Set(["w", "d", "h"]);

/** Expands clusters of the entry script's short flags: `-wd` → `-w -d`. */
export function expandClusters(argv: string[]): string[] {
  return argv.flatMap((arg) => {
    if (!/^-[a-z]{2,}$/.test(arg)) return [arg];
    const letters = [...arg.slice(1)];
    return letters.every((l) => CLUSTER_LETTERS.has(l)) ? letters.map((l) => `-${l}`) : [arg];
  });
}

/** True when the arguments ask for help. */
export function wantsHelp(argv: string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}

/** Splits off `--webapp`/`-w`; returns null when absent. */
export function takeWebappFlag(argv: string[]): string[] | null {
  if (!argv.includes("--webapp") && !argv.includes("-w")) return null;
  return argv.filter((a) => a !== "--webapp" && a !== "-w");
}

/** The web port given as `--port N`, `--port=N` or `-p N`, or null. */
export function findPort(argv: string[]): number | null {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let text: string | undefined;
    if (arg.startsWith("--port=")) text = arg.slice(7);
    else if (arg === "--port" || arg === "-p") text = argv[i + 1];
    if (text !== undefined && /^\d{1,5}$/.test(text)) {
      const port = Number(text);
      if (port >= 1 && port <= 65535) return port;
    }
  }
  return null;
}

/** The host given as `--host H` or `--host=H`, or null. */
export function findHost(argv: string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith("--host=")) return arg.slice(7);
    if (arg === "--host" && argv[i + 1]) return argv[i + 1]!;
  }
  return null;
}

/** The token given as `--token T` or `--token=T`, or null. */
export function findToken(argv: string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith("--token=")) return arg.slice(8);
    if (arg === "--token" && argv[i + 1] !== undefined) return argv[i + 1]!;
  }
  return null;
}

/** True when the debug flag is present. */
export function wantsDebug(argv: string[]): boolean {
  return argv.includes("--debug") || argv.includes("-d");
}
