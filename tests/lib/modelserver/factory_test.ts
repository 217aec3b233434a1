import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError } from "../../../lib/error.ts";
import { type BackendKind, createBackend } from "../../../lib/modelserver/mod.ts";
import { startLmStudioDouble } from "../../doubles/lmstudio_server.ts";
import { chatReq } from "./_fixtures.ts";

Deno.test("createBackend() builds each kind against one double on one port", async () => {
  const d = await startLmStudioDouble({ port: 0, seed: 9 });
  try {
    const texts: string[] = [];
    for (const kind of ["rest", "sdk", "openai"] as BackendKind[]) {
      const b = createBackend({ backend: kind, host: "127.0.0.1", port: d.port, timeout_ms: 5000 });
      try {
        assert.equal(b.kind, kind);
        assert.match(b.describe(), new RegExp(`127\\.0\\.0\\.1:${d.port}`));
        const models = await b.listModels();
        assert.ok(models.some((m) => m.base_key === "qwen/qwen3-4b"));
        const res = await b.chat(chatReq("qwen/qwen3-4b", "Same prompt", { max_tokens: 6 }));
        texts.push(res.text);
        if (kind !== "openai") assert.equal(await b.version(), "0.4.1");
      } finally {
        await b.close();
      }
    }
    assert.equal(
      new Set(texts).size,
      1,
      "the double answers the same prompt the same way on every protocol",
    );
  } finally {
    await d.close();
  }
});

Deno.test("createBackend() rejects an unknown kind with a 400", () => {
  assert.throws(
    () => createBackend({ backend: "grpc" as BackendKind }),
    (e) => e instanceof AppError && statusOf(e) === 400,
  );
});
