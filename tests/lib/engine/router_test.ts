import assert from "node:assert/strict";
import { AppError } from "../../../lib/error.ts";
import {
  listRouterModels,
  loadRouterModel,
  unloadRouterModel,
} from "../../../lib/engine/router.ts";

/** A router double: load and unload take two polls to settle, as the real one is asynchronous. */
function routerDouble() {
  const state = new Map<string, { value: string; polls: number; failed?: boolean }>([
    ["tiny-a", { value: "unloaded", polls: 0 }],
    ["broken", { value: "unloaded", polls: 0 }],
  ]);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/models") {
      const data = [...state].map(([id, s]) => {
        if (s.polls > 0 && --s.polls === 0) {
          s.value = s.value === "loading" ? (id === "broken" ? "unloaded" : "loaded") : "unloaded";
          if (id === "broken") s.failed = true;
        }
        const status = s.failed
          ? { value: s.value, failed: true, exit_code: 1 }
          : { value: s.value };
        return { id, path: `/m/${id}.gguf`, status };
      });
      return Response.json({ data });
    }
    const { model } = await req.json();
    const s = state.get(model);
    if (!s) {
      return Response.json({ error: { code: 400, message: `model '${model}' not found` } }, {
        status: 400,
      });
    }
    s.value = path === "/models/load" ? "loading" : "unloading";
    s.polls = 2;
    return Response.json({ success: true });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, server };
}

Deno.test("listRouterModels() returns the router's models with their status", async () => {
  const { url, server } = routerDouble();
  try {
    const models = await listRouterModels(url);
    assert.deepEqual(models.map((m) => [m.id, m.status.value]), [["tiny-a", "unloaded"], [
      "broken",
      "unloaded",
    ]]);
  } finally {
    await server.shutdown();
  }
});

Deno.test("loadRouterModel() and unloadRouterModel() wait until the status settles", async () => {
  const { url, server } = routerDouble();
  try {
    assert.equal((await loadRouterModel(url, "tiny-a")).status.value, "loaded");
    assert.equal((await unloadRouterModel(url, "tiny-a")).status.value, "unloaded");
  } finally {
    await server.shutdown();
  }
});

Deno.test("loadRouterModel() reports the router's error for an unknown model", async () => {
  const { url, server } = routerDouble();
  try {
    await assert.rejects(
      loadRouterModel(url, "nope"),
      (err: unknown) =>
        err instanceof AppError && err.code === "router_error" && /not found/.test(err.message),
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("loadRouterModel() reports a model whose instance failed to start", async () => {
  const { url, server } = routerDouble();
  try {
    await assert.rejects(
      loadRouterModel(url, "broken"),
      (err: unknown) => err instanceof AppError && err.code === "model_load_failed",
    );
  } finally {
    await server.shutdown();
  }
});
