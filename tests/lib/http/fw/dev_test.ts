import assert from "node:assert/strict";
import { join } from "node:path";
import { watchProject } from "../../../../lib/http/fw/dev.ts";
import { waitFor } from "../../../_helpers.ts";

const read = (path: string) => Deno.readTextFile(path).catch(() => "");

Deno.test({
  name: "watchProject() (--dev) builds at once, then again when an island changes or is added",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "lb_dev_" });
    await Deno.mkdir(join(root, "routes"));
    await Deno.mkdir(join(root, "islands"));
    await Deno.writeTextFile(join(root, "routes/index.tsx"), "export default () => null;\n");
    const island = (text: string) => `export default function Counter() { return "${text}"; }\n`;
    await Deno.writeTextFile(join(root, "islands/Counter.tsx"), island("first-build"));
    const errors: unknown[] = [];
    const watch = await watchProject(root, { debounceMs: 20, onError: (e) => errors.push(e) });
    const bundle = join(root, "static/_islands/Counter.js");
    try {
      assert.equal(watch.builds, 1);
      assert.match(await read(bundle), /first-build/);
      assert.match(await read(join(root, "manifest.gen.ts")), /islands\/Counter\.tsx/);

      await Deno.writeTextFile(join(root, "islands/Counter.tsx"), island("second-build"));
      await waitFor(async () => (await read(bundle)).includes("second-build"), 20_000);

      await Deno.writeTextFile(
        join(root, "islands/Gauge.tsx"),
        "export default function Gauge() { return null; }\n",
      );
      await waitFor(
        async () => (await read(join(root, "manifest.gen.ts"))).includes("Gauge"),
        20_000,
      );
      await waitFor(
        async () => (await read(join(root, "static/_islands/Gauge.js"))) !== "",
        20_000,
      );
      assert.deepEqual(errors, []);
    } finally {
      await watch.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
