/**
 * The traversal corpus: every way a client can spell "a file outside this folder" in a URL path
 * segment — plain, percent-encoded, double and triple encoded, with a fragment or query marker
 * to cut a required suffix, with a NUL, with Unicode look-alikes and overlong UTF-8 of the
 * separators, absolute and relative.
 *
 * @module
 */
import { relative } from "node:path";

/** A file outside the served folders and the text that proves it was read. */
export interface Target {
  path: string;
  marker: string;
}

/** Encodings of one separator character applied to a raw path. */
const SLASHES = [
  "/",
  "%2F",
  "%2f",
  "%252F",
  "%25252F",
  "%5C",
  "%255C",
  "\\",
  "%C0%AF",
  "%E0%80%AF",
  "%EF%BC%8F", // fullwidth solidus
  "%E2%88%95", // division slash
];
const DOTS = [".", "%2E", "%2e", "%252E", "%25252e", "%C0%AE"];
/** Ways to make `<path><suffix>` end with the route's required extension. */
const SUFFIX_CUTS = ["", "#", "%23", "%2523", "?", "%3F", "%253F", "%00", "%2500", ";"];

function spell(path: string, slash: string, dot: string): string {
  return path.split("/").map((p) => p === ".." ? dot + dot : p).join(slash);
}

/**
 * URL path tails (to append after a route's prefix) that point at `target` from `servedDir`,
 * each ending with `extension` after a suffix cut.
 */
export function traversalTails(target: string, servedDir: string, extension: string): string[] {
  const rel = relative(servedDir, target);
  const deep = "../".repeat(12) + target.replace(/^\//, "");
  const out = new Set<string>();
  for (const base of [target, rel, deep, `x/../${rel}`, `x${target}`]) {
    for (const slash of SLASHES) {
      for (const dot of DOTS) {
        for (const cut of SUFFIX_CUTS) {
          const spelled = spell(base, slash, dot);
          out.add(`${spelled}${cut}${extension}`);
          if (cut === "") out.add(spelled);
        }
      }
    }
  }
  return [...out];
}

/** Creates a secret file in `dir` (outside every served folder) and returns it. */
export async function plantSecret(dir: string, name: string): Promise<Target> {
  const marker = `SECRET-${crypto.randomUUID()}`;
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, `${marker}\n`);
  return { path, marker };
}

/** The outcome of one request of the corpus. */
export interface Probe {
  url: string;
  status: number;
  leaked: boolean;
}

/**
 * Requests every tail under `prefix` and reports each status and whether the body carried a
 * marker. Requests are made `concurrency` at a time.
 */
export async function probe(
  fetcher: (url: string) => Promise<Response>,
  prefix: string,
  tails: string[],
  markers: string[],
  concurrency = 16,
): Promise<Probe[]> {
  const out: Probe[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tails.length) {
      const url = prefix + tails[next++]!;
      const res = await fetcher(url);
      const body = await res.text();
      out.push({ url, status: res.status, leaked: markers.some((m) => body.includes(m)) });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}
