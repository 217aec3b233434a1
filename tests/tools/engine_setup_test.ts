import assert from "node:assert/strict";
import { UsageError } from "../../lib/error.ts";
import { parseSetupArgs } from "../../tools/engine_setup.ts";

Deno.test("parseSetupArgs() reads --force, --keep-build and --jobs and rejects unknown flags", () => {
  assert.deepEqual(parseSetupArgs(["--force", "--jobs", "4"]), {
    force: true,
    keepBuild: false,
    help: false,
    jobs: 4,
  });
  assert.equal(parseSetupArgs(["--keep-build"]).keepBuild, true);
  assert.throws(() => parseSetupArgs(["--jobs", "0"]), UsageError);
  assert.throws(() => parseSetupArgs(["--fast"]), /unknown argument '--fast'/);
});
