/**
 * The JavaScript a dashboard page ships: its boot script, its islands and every chunk they import
 * (statically or on demand), raw and gzipped.
 *
 * @module
 */
import { join } from "node:path";

async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** Every file reachable from the entries through `import` / `import()` of relative chunks. */
async function reachable(dir: string, entries: string[]): Promise<string[]> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const text = await Deno.readTextFile(join(dir, name));
    for (const m of text.matchAll(/["']\.\/([\w-]+\.js)["']/g)) queue.push(m[1]!);
  }
  return [...seen].sort();
}

/** The files, bytes and gzipped bytes of the JavaScript of a page whose HTML is `html`. */
export async function pageJavaScript(
  dir: string,
  html: string,
): Promise<{ files: string[]; bytes: number; gzip: number }> {
  const islands = [...new Set([...html.matchAll(/data-island="(\w+)"/g)].map((m) => m[1]!))];
  const files = await reachable(dir, ["boot.js", ...islands.map((n) => `${n}.js`)]);
  let bytes = 0;
  let gzip = 0;
  for (const f of files) {
    const data = await Deno.readFile(join(dir, f));
    bytes += data.byteLength;
    gzip += await gzipSize(data);
  }
  return { files, bytes, gzip };
}
