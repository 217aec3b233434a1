import assert from "node:assert/strict";
import { ConfigFile, type ConfigFs, denoConfigFs } from "../../../lib/host/mod.ts";

Deno.test("ConfigFile keeps sections it does not know when it saves", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/config.yaml`;
    await Deno.writeTextFile(path, "server:\n  port: 5000\ncustom:\n  - a\n  - b\n");
    const file = new ConfigFile(path);
    await file.update((doc) => {
      doc.plugins = { x: { a: 1 } };
    });
    const text = await Deno.readTextFile(path);
    assert.ok(text.includes("custom:\n  - a\n  - b"));
    assert.deepEqual((await file.read()).server, { port: 5000 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ConfigFile leaves the old file intact when a save crashes midway", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/config.yaml`;
    await Deno.writeTextFile(path, "keep: true\n");
    const crashing: ConfigFs = {
      ...denoConfigFs,
      async writeTextFile(p, text) {
        await Deno.writeTextFile(p, text.slice(0, 3));
        throw new Error("disk full");
      },
    };
    const file = new ConfigFile(path, crashing);
    await assert.rejects(file.update((doc) => {
      doc.keep = false;
    }));
    assert.equal(await Deno.readTextFile(path), "keep: true\n");
    const left = [];
    for await (const e of Deno.readDir(dir)) left.push(e.name);
    assert.deepEqual(left, ["config.yaml"], "the temp file is removed");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ConfigFile runs concurrent updates one after another", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = new ConfigFile(`${dir}/config.yaml`);
    await Promise.all(Array.from({ length: 20 }, (_, i) =>
      file.update((doc) => {
        doc[`k${i}`] = i;
      })));
    assert.equal(Object.keys(await file.read()).length, 20);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ConfigFile sees edits made by another process", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/config.yaml`;
    const file = new ConfigFile(path);
    await file.update((doc) => {
      doc.a = 1;
    });
    await new Promise((r) => setTimeout(r, 20));
    await Deno.writeTextFile(path, "a: 2\n");
    await Deno.utime(path, new Date(), new Date(Date.now() + 5000));
    assert.equal((await file.read()).a, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ConfigFile rejects a document whose top level is not a mapping", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/c.yaml`, "- a\n");
    await assert.rejects(new ConfigFile(`${dir}/c.yaml`).read(), /top level/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
