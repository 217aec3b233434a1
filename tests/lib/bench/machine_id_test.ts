import assert from "node:assert/strict";
import { join } from "node:path";
import {
  denoIdFile,
  ID_FILE,
  type IdFile,
  idFromSystem,
  machineId,
} from "../../../lib/bench/machine_id.ts";
import { StorageError } from "../../../lib/error.ts";
import { tempEnv } from "../../_helpers.ts";
import { memFiles } from "./_profiler_fakes.ts";

const noSystemId = memFiles({});

Deno.test("the system's machine id gives a stable id that is not the system's own", async () => {
  await using t = await tempEnv();
  const files = memFiles({ "/etc/machine-id": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n" });
  const a = await machineId(t.dataDir, { files, idFile: denoIdFile });
  const b = await machineId(join(t.root, "elsewhere"), { files, idFile: denoIdFile });
  assert.equal(a, b, "the same machine, whatever the data folder");
  assert.equal(a, idFromSystem("a".repeat(32)));
  assert.notEqual(idFromSystem("a".repeat(32)), idFromSystem("b".repeat(32)));
  // D-Bus's copy when systemd's is missing; a malformed one is no id.
  const dbus = memFiles({
    "/etc/machine-id": "uninitialized\n",
    "/var/lib/dbus/machine-id": "b".repeat(32),
  });
  assert.equal(
    await machineId(t.dataDir, { files: dbus, idFile: denoIdFile }),
    idFromSystem("b".repeat(32)),
  );
});

Deno.test("without a system id, one is generated once and kept in the data folder", async () => {
  await using t = await tempEnv();
  let draws = 0;
  const random = () => (++draws).toString(16).padStart(16, "0");
  const first = await machineId(t.dataDir, { files: noSystemId, idFile: denoIdFile, random });
  const again = await machineId(t.dataDir, { files: noSystemId, idFile: denoIdFile, random });
  assert.equal(first, "0000000000000001");
  assert.equal(again, first);
  assert.equal(draws, 1);
  assert.equal(await Deno.readTextFile(join(t.dataDir, ID_FILE)), `${first}\n`);
  // No temporary file is left beside it.
  assert.deepEqual([...Deno.readDirSync(t.dataDir)].map((e) => e.name), [ID_FILE]);
});

Deno.test("two processes creating the id at once agree on the one that was written first", async () => {
  await using t = await tempEnv();
  const ids = await Promise.all(
    ["1111111111111111", "2222222222222222", "3333333333333333"].map((id) =>
      machineId(t.dataDir, { files: noSystemId, idFile: denoIdFile, random: () => id })
    ),
  );
  assert.equal(new Set(ids).size, 1);
  assert.equal((await Deno.readTextFile(join(t.dataDir, ID_FILE))).trim(), ids[0]);
});

Deno.test("a kept id file that lost the race is read back, and a damaged one is refused", async () => {
  await using t = await tempEnv();
  // Another process creates the file between this one's read and its own creation.
  let reads = 0;
  const racing: IdFile = {
    read: () => Promise.resolve(reads++ === 0 ? null : "abcdefabcdefabcd\n"),
    createOnce: () => Promise.resolve(false),
  };
  assert.equal(
    await machineId(t.dataDir, { files: noSystemId, idFile: racing, random: () => "0".repeat(16) }),
    "abcdefabcdefabcd",
  );
  await Deno.mkdir(t.dataDir, { recursive: true });
  await Deno.writeTextFile(join(t.dataDir, ID_FILE), "not an id\n");
  await assert.rejects(
    () => machineId(t.dataDir, { files: noSystemId, idFile: denoIdFile }),
    (err) => err instanceof StorageError && /does not hold a machine id/.test(err.message),
  );
});
