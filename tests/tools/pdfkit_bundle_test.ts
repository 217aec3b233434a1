import assert from "node:assert/strict";
import { join } from "node:path";
import { buildPdfkitBundle, PDFKIT_BUNDLE } from "../../tools/pdfkit_bundle.ts";
import { REPO_ROOT } from "../_helpers.ts";

Deno.test("the pdfkit build is one module importing only Node built-ins, what a report never uses made on first use", async () => {
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
    // fontkit's Brotli decoder (WOFF2 only), pdfkit's AES (encryption only) and fontkit's three
    // shaper tries are made on first use, not at load.
    assert.match(text, /localbench-lazy:brotli\/decompress\.js/);
    assert.match(text, /localbench-lazy:@noble\/ciphers\/aes/);
    assert.equal(text.match(/ = localbenchLazyTrie\(\(\) => new /g)?.length, 3);
    // Nothing is left half-written beside it.
    const left = [...Deno.readDirSync(join(root, ".cache", "build"))].map((e) => e.name);
    assert.deepEqual(left, ["pdfkit.js"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
