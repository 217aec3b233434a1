import assert from "node:assert/strict";
import { join } from "node:path";
import { buildPdfkitBundle, PDFKIT_BUNDLE } from "../../tools/pdfkit_bundle.ts";
import { REPO_ROOT } from "../_helpers.ts";

Deno.test("the pdfkit build is one module whose only imports are Node's built-ins, by node: name", async () => {
  const root = await Deno.makeTempDir({ prefix: "localbench-pdfkit-" });
  try {
    await Deno.symlink(join(REPO_ROOT, "node_modules"), join(root, "node_modules"));
    const { bytes } = await buildPdfkitBundle(root);
    const raw = await Deno.readFile(join(root, PDFKIT_BUNDLE));
    assert.equal(raw.length, bytes);
    const text = new TextDecoder().decode(raw);
    const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]!);
    assert.ok(imports.length > 0);
    for (const spec of imports) assert.match(spec, /^node:[a-z_/]+$/, spec);
    assert.ok(!/\brequire\("(?!node:)[^".][^"]*"\)/.test(text), "a bare require() was left");
    // fontkit's Brotli decoder (WOFF2 only) is required on first call, not at load.
    assert.match(text, /localbench-lazy:brotli\/decompress\.js/);
    // Nothing is left half-written beside it.
    const left = [...Deno.readDirSync(join(root, ".cache", "build"))].map((e) => e.name);
    assert.deepEqual(left, ["pdfkit.js"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
