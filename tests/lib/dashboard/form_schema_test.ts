import assert from "node:assert/strict";
import { formSections } from "../../../lib/dashboard/form_schema.ts";
import { FLAGS } from "../../../lib/cli/flags.ts";
import { resolveInvocation } from "../../../lib/cli/invocation.ts";
import { tempEnv } from "../../_helpers.ts";

async function defaultsOf(argv: string[]) {
  await using env = await tempEnv();
  const inv = await resolveInvocation(argv, { env: env.env });
  if (inv.kind !== "run") throw new Error("not a run");
  return { config: inv.config, options: inv.options };
}

Deno.test("formSections() offers every benchmark setting once, as one control per flag pair", async () => {
  const sections = formSections(await defaultsOf([]));
  const fields = sections.flatMap((s) => s.fields);
  const ids = fields.map((f) => f.id);
  assert.equal(new Set(ids).size, ids.length, "no field twice");
  const covered = new Set(fields.flatMap((f) => f.flags));
  const actions = [
    "list-presets",
    "list-cache",
    "export-cache",
    "export-only",
    "import",
    "store",
    "store-copy-to",
    "print-config",
    "list-models",
    "json",
    "save-requests",
    "percentiles",
    "dataset",
    "preset",
    "use-rest-api",
  ];
  for (const f of FLAGS) {
    if (actions.includes(f.long)) continue;
    assert.ok(covered.has(f.long), `--${f.long} has no field`);
  }
  assert.equal(ids.includes("preset"), false);
  const fa = fields.find((f) => f.id === "flash-attention")!;
  assert.equal(fa.control, "tristate");
  assert.deepEqual(fa.flags, ["flash-attention", "no-flash-attention"]);
  assert.equal(fa.placeholder, "Default (on)");
  assert.equal(fields.find((f) => f.id === "use-mmap")!.control, "tristate");
  assert.deepEqual(sections.map((s) => [s.id, s.open]), [
    ["basic", true],
    ["filters", true],
    ["sampling", false],
    ["load", false],
    ["advanced", false],
  ]);
  for (const f of fields) assert.ok(f.label && !f.label.startsWith("--"), `${f.id} has a label`);
});

Deno.test("formSections() shows the effective defaults, the web app's own arguments included", async () => {
  const fields = formSections(await defaultsOf(["--runs", "5", "--no-mmap", "--n-parallel", "2"]))
    .flatMap((s) => s.fields);
  const ph = (id: string) => fields.find((f) => f.id === id)!.placeholder;
  assert.equal(ph("runs"), "5");
  assert.equal(ph("context"), "2048");
  assert.equal(ph("temperature"), "0.1");
  assert.equal(ph("use-mmap"), "Default (off)");
  assert.equal(ph("n-parallel"), "2");
  assert.equal(ph("requests"), "16");
  assert.equal(ph("prompt"), "Explain machine learning in 3 sentences.");
  assert.equal(ph("backend"), "Default (LM Studio SDK)");
});
