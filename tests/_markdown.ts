/**
 * Reading the repository's Markdown for the docs tests: which files are docs, their links, their
 * headings' anchors (as GitHub makes them) and the lines of their fenced code blocks.
 *
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";
import { exists } from "../lib/fs.ts";

/** A Markdown file of the repository: its path from the root and its text. */
export interface Doc {
  path: string;
  text: string;
}

/** README.md, every docs/*.md and every plugin's README.md. */
export async function readDocs(): Promise<Doc[]> {
  const paths = ["README.md"];
  for await (const e of Deno.readDir(join(REPO_ROOT, "docs"))) {
    if (e.isFile && e.name.endsWith(".md")) paths.push(`docs/${e.name}`);
  }
  for await (const e of Deno.readDir(join(REPO_ROOT, "plugins"))) {
    const readme = `plugins/${e.name}/README.md`;
    if (e.isDirectory && await exists(join(REPO_ROOT, readme))) paths.push(readme);
  }
  paths.sort();
  return await Promise.all(
    paths.map(async (path) => ({ path, text: await Deno.readTextFile(join(REPO_ROOT, path)) })),
  );
}

/** The text outside fenced code blocks (inline code spans removed too). */
export function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The lines inside fenced code blocks. */
export function fencedLines(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)) out.push(...m[1]!.split("\n"));
  return out.filter((l) => l.trim() !== "");
}

/** The targets of the inline links `[text](target)` of the prose. */
export function links(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").trim().replace(/\s/g, "-");
}

/** The anchors of a file's headings, numbered as GitHub numbers repeated ones (`-1`, `-2`...). */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const withoutFences = text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
  for (const m of withoutFences.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}
