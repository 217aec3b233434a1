/**
 * Shared inputs of the model-server tests.
 *
 * @module
 */

import { builtInDefaults } from "../../../lib/config/mod.ts";
import type { ChatRequest, LoadOptions } from "../../../lib/modelserver/mod.ts";

/** Load options with the project's defaults. */
export const LOAD: LoadOptions = { context_length: 2048, ...builtInDefaults().load };

/** A chat request with the project's default sampling. */
export function chatReq(
  model: string,
  prompt = "Explain machine learning in 3 sentences.",
  extra: Partial<ChatRequest> = {},
): ChatRequest {
  return {
    model,
    messages: [{ role: "user", content: prompt }],
    temperature: 0.1,
    top_k: 40,
    top_p: 0.9,
    min_p: 0.05,
    repeat_penalty: 1.2,
    max_tokens: 32,
    ...extra,
  };
}

/** Resolves with the rejection of a promise (fails when it resolves). */
export async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("Expected the promise to reject");
}

/** A port with nothing listening on it (bound, then released). */
export function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** A loopback server that accepts requests and WebSockets and never answers; close() releases. */
export function silentServer(): { port: number; close(): Promise<void> } {
  const release = new AbortController();
  const sockets: WebSocket[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    if (req.headers.get("upgrade")?.toLowerCase() === "websocket") {
      const { socket, response } = Deno.upgradeWebSocket(req);
      sockets.push(socket);
      return response;
    }
    return new Promise<Response>((resolve) => {
      const done = () => resolve(new Response("released", { status: 503 }));
      if (release.signal.aborted) return done();
      release.signal.addEventListener("abort", done, { once: true });
    });
  });
  return {
    port: server.addr.port,
    close: async () => {
      release.abort();
      for (const s of sockets) s.close();
      await server.shutdown();
    },
  };
}
