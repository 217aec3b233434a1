/**
 * Adding a plugin is copying its folder, renaming one constant and adding one registry line: in a
 * copy of the repository, the uptime plugin's folder copied under a new id is built by
 * `deno task build` and served by `deno task host` beside the original: its API, its settings,
 * its settings page, its island bundles and its styles.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { REPO_ROOT } from "../_helpers.ts";
import { startScopedHost } from "./_scoped_host.ts";

const ORIGINAL = "host_uptime";
const COPY = "uptime_copy";

async function run(cmd: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdin: "null", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, `${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return text;
}

/** Copies the repository's files (tracked and new, not ignored) to `to`; links node_modules. */
async function copyRepository(to: string): Promise<void> {
  const listed = await run(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    REPO_ROOT,
  );
  for (const file of listed.split("\0").filter(Boolean)) {
    await Deno.mkdir(dirname(join(to, file)), { recursive: true });
    await Deno.copyFile(join(REPO_ROOT, file), join(to, file)).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err; // deleted, not yet committed
    });
  }
  await Deno.symlink(join(REPO_ROOT, "node_modules"), join(to, "node_modules"));
}

/** The three steps of docs/architecture.md "How to add a plugin", on the uptime plugin. */
async function addCopy(root: string): Promise<void> {
  const from = join(root, "plugins", ORIGINAL);
  const to = join(root, "plugins", COPY);
  await run("cp", ["-r", from, to], root);
  const id = await Deno.readTextFile(join(to, "id.ts"));
  assert.equal(id.split(`"${ORIGINAL}"`).length, 2, "the id is written once");
  await Deno.writeTextFile(join(to, "id.ts"), id.replace(`"${ORIGINAL}"`, `"${COPY}"`));
  const registry = join(root, "plugins/registry.ts");
  const lines = (await Deno.readTextFile(registry)).split("\n");
  const at = lines.findIndex((l) => l.includes(`"./${ORIGINAL}/mod.ts"`));
  lines.splice(at + 1, 0, lines[at]!.replace(ORIGINAL, COPY));
  await Deno.writeTextFile(registry, lines.join("\n"));
}

Deno.test({
  name: "a plugin folder copied under a new id, with one constant and one registry line changed, " +
    "is built and served beside the original",
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "lb_plugin_copy_" });
    const dataDir = await Deno.makeTempDir({ prefix: "lb_plugin_copy_data_" });
    try {
      await copyRepository(root);
      await addCopy(root);
      const built = await run(Deno.execPath(), ["task", "--quiet", "build"], root);
      assert.match(built, /5 plugin stylesheets/);
      const h = await startScopedHost({ dataDir, root, args: [] });
      try {
        const get = async (path: string) => {
          const res = await fetch(`${h.base}${path}`, { headers: { "X-Api-Key": h.key } });
          return {
            status: res.status,
            type: res.headers.get("content-type"),
            text: await res.text(),
          };
        };
        // Its API answers with a key, with its own settings; the original's keeps its own.
        const saved = await h.call("POST", "/api/settings", {
          plugins: { [COPY]: { display_format: "short" } },
        });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        const copy = await h.call("GET", `/api/plugin/${COPY}`);
        const original = await h.call("GET", `/api/plugin/${ORIGINAL}`);
        assert.equal(copy.status, 200);
        assert.equal(copy.body.display_format, "short");
        assert.equal(typeof copy.body.host_uptime, "string");
        assert.equal(original.status, 200);
        assert.equal(original.body.display_format, "full");

        // Its settings page, with its island named by its id, and both widgets in the top bar.
        const page = await get(`/plugins/${COPY}/settings`);
        assert.equal(page.status, 200, page.text);
        assert.match(page.text, new RegExp(`data-island="${COPY}/UptimeSettings"`));
        assert.match(page.text, /&quot;display_format&quot;:&quot;short&quot;/);
        for (const id of [ORIGINAL, COPY]) {
          assert.match(page.text, new RegExp(`data-island="${id}/UptimeWidget"`), id);
          assert.match(page.text, new RegExp(`href="/plugins/${id}/settings"`), `${id}: its tab`);
        }
        assert.match(page.text, /href="\/_islands\/plugins\.css"/);

        // Its island bundles and its styles, gathered by the build.
        for (const id of [ORIGINAL, COPY]) {
          for (const island of ["UptimeSettings", "UptimeWidget"]) {
            const js = await get(`/_islands/${id}/${island}.js`);
            assert.equal(js.status, 200, `${id}/${island}`);
            assert.match(js.type ?? "", /javascript/);
          }
        }
        const css = await get("/_islands/plugins.css");
        assert.equal(css.status, 200);
        assert.match(css.type ?? "", /text\/css/);
        for (const id of [ORIGINAL, COPY]) {
          assert.ok(css.text.includes(`/* plugins/${id}/styles.css */\n`), id);
        }
        assert.match(css.text, /\.uptime-note/);
      } finally {
        assert.equal((await h.stop()).code, 0);
      }
    } finally {
      await Deno.remove(root, { recursive: true });
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
