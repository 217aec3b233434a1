/**
 * The LM Studio SDK double: speaks the WebSocket protocol of `@lmstudio/sdk` 1.5.0 (one socket per
 * namespace, auth frame, `rpcCall`, `channelCreate`/`channelSend`/`channelClose`/`channelError`,
 * `keepAlive`) over the shared double state, so the real SDK can load, predict and unload.
 *
 * @module
 */

import { pause } from "./_lmstudio_http.ts";
import { countTokens } from "./_lmstudio_gen.ts";
import {
  loadConfigFromStack,
  sdkInstanceInfo,
  sdkListedModel,
  sdkLoadConfig,
  sdkModelInfo,
  sdkStats,
  sdkVariantInfo,
  stackFields,
} from "./_lmstudio_sdk_shapes.ts";
import { DoubleError, type DoubleState, type Instance } from "./_lmstudio_state.ts";

/** Options of {@linkcode createSdkDouble}. */
export interface SdkDoubleOptions {
  state: DoubleState;
  /** When set (`sk-lm-ID:KEY`), the auth frame must carry `ID` and `KEY`, as LM Studio checks. */
  token?: string | null;
}

/** The SDK double: hand it WebSocket upgrade requests. */
export interface SdkDouble {
  /** Upgrades a request whose path is a namespace (`/llm`, `/system`, ...). */
  upgrade(req: Request): Response;
  /** Closes every socket. */
  close(): void;
}

type Send = (frame: Record<string, unknown>) => void;

function serializeError(err: unknown): Record<string, unknown> {
  const title = err instanceof Error ? err.message : String(err);
  return { title, rootTitle: title };
}

function findInstance(state: DoubleState, specifier: unknown): Instance | undefined {
  const s = specifier as {
    type?: string;
    instanceReference?: string;
    query?: { identifier?: string };
  };
  const all = [...state.instances.values()];
  if (s?.type === "instanceReference") {
    return all.find((i) => `ref-${i.id}` === s.instanceReference);
  }
  const id = s?.query?.identifier;
  if (id === undefined) return all.find((i) => i.model.type === "llm");
  return state.instances.get(id) ?? state.instancesOf(id)[0];
}

/** The text of a chat history (messages joined by line breaks). */
function historyText(history: unknown): string {
  const messages =
    (history as { messages?: { content?: { type: string; text?: string }[] }[] })?.messages ?? [];
  return messages.map((m) => (m.content ?? []).map((c) => c.text ?? "").join("")).join("\n");
}

function rpc(state: DoubleState, ns: string, endpoint: string, param: unknown): unknown {
  const p = (param ?? {}) as Record<string, unknown>;
  const domain = ns === "embedding" ? "embedding" : "llm";
  switch (`${ns}/${endpoint}`) {
    case "system/listDownloadedModels":
      return state.installed().map(sdkListedModel);
    case "system/listDownloadedModelVariants": {
      // An unknown model key fails, as on the server.
      const m = state.installed().find((x) => x.key === p.modelKey);
      if (m === undefined) throw new Error(`Cannot find a model with key "${p.modelKey}"`);
      return m.variants.map((v) => sdkVariantInfo(m, v));
    }
    case "system/version":
      return state.lmStudioVersion;
    case "llm/listLoaded":
    case "embedding/listLoaded":
      return [...state.instances.values()].filter((i) => i.model.type === domain).map(
        sdkInstanceInfo,
      );
    case "llm/getModelInfo":
    case "embedding/getModelInfo": {
      const inst = findInstance(state, p.specifier);
      if (inst === undefined && p.throwIfNotFound === true) {
        throw new Error("No loaded model satisfies the query");
      }
      return inst === undefined ? undefined : sdkInstanceInfo(inst);
    }
    case "llm/getLoadConfig": {
      const inst = findInstance(state, p.specifier);
      if (inst === undefined) throw new Error("No loaded model satisfies the query");
      return sdkLoadConfig(inst);
    }
    case "llm/applyPromptTemplate": {
      // The double's chat template is the messages' text itself, which is also what the
      // prediction counts as its prompt (promptTokensCount): counts agree as on the real server.
      if (findInstance(state, p.specifier) === undefined) {
        throw new Error("No loaded model satisfies the query");
      }
      return { formatted: historyText(p.history) };
    }
    case "llm/countTokens":
      return { tokenCount: countTokens(String(p.inputString ?? "")) };
    case "llm/tokenize":
      return {
        tokens: Array.from({ length: countTokens(String(p.inputString ?? "")) }, (_, i) => i),
      };
    case "llm/unloadModel":
    case "embedding/unloadModel":
      state.unload(String(p.identifier));
      return undefined;
  }
  throw new Error(`Unknown RPC endpoint "${endpoint}" in namespace "${ns}"`);
}

async function loadChannel(
  state: DoubleState,
  p: Record<string, unknown>,
  send: (m: unknown) => void,
  signal: AbortSignal,
) {
  const key = String(p.modelKey);
  const found = state.findModel(key);
  if (found === null) {
    throw new DoubleError(404, "model_not_found", `Cannot find a model with key "${key}"`);
  }
  send({ type: "resolved", info: sdkModelInfo(found.model, found.variant) });
  await pause(1, signal);
  send({ type: "progress", progress: 0.5 });
  const inst = state.load(
    key,
    loadConfigFromStack(p.loadConfigStack),
    typeof p.identifier === "string" ? p.identifier : undefined,
  );
  send({ type: "success", info: sdkInstanceInfo(inst) });
}

async function predictChannel(
  state: DoubleState,
  p: Record<string, unknown>,
  send: (m: unknown) => void,
  signal: AbortSignal,
  drop: () => void,
) {
  const inst = findInstance(state, p.modelSpecifier);
  const prompt = historyText(p.history);
  const max = stackFields(p.predictionConfigStack).get("llm.prediction.maxPredictedTokens") as
    | { checked?: boolean; value?: number }
    | undefined;
  const maxTokens = max?.checked && typeof max.value === "number" ? max.value : 512;
  const chat = state.prepareChat(inst?.id ?? "", prompt, maxTokens);
  if (chat.streamError?.afterTokens === 0) throw new Error(chat.streamError.message);
  send({ type: "promptProcessingProgress", progress: 0 });
  send({ type: "promptProcessingProgress", progress: 1 });
  const n = chat.gen.tokens.length;
  let emitted = 0;
  for (; emitted < n && !signal.aborted; emitted++) {
    if (emitted === state.faults.dropStreamAfterTokens) return drop();
    if (chat.streamError !== null && emitted === chat.streamError.afterTokens) {
      throw new Error(chat.streamError.message);
    }
    await pause(chat.gen.delaysMs[emitted]! + state.faults.slowTokensMs, signal);
    send({
      type: "fragment",
      fragment: {
        content: chat.gen.tokens[emitted]!,
        tokensCount: 1,
        containsDrafted: false,
        reasoningType: "none",
        isStructural: false,
      },
    });
  }
  if (emitted === state.faults.dropStreamAfterTokens) return drop();
  const stop = signal.aborted ? "userStopped" : chat.gen.stopReason;
  send({
    type: "success",
    stats: sdkStats(chat.gen, emitted, stop),
    modelInfo: sdkInstanceInfo(chat.instance),
    loadModelConfig: sdkLoadConfig(chat.instance),
    predictionConfig: { fields: [] },
  });
}

/** Creates the SDK double over a shared state. */
export function createSdkDouble(options: SdkDoubleOptions): SdkDouble {
  const { state } = options;
  const token = options.token ?? null;
  const sockets = new Set<WebSocket>();
  const upgrade = (req: Request): Response => {
    const ns = new URL(req.url).pathname.replace(/^\/+/, "");
    const { socket, response } = Deno.upgradeWebSocket(req);
    sockets.add(socket);
    const channels = new Map<number, AbortController>();
    let authed = false;
    const send: Send = (frame) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
    };
    socket.onclose = () => {
      sockets.delete(socket);
      for (const c of channels.values()) c.abort();
    };
    socket.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data)) as Record<string, unknown>;
      if (!authed) {
        // LM Studio tokens are `sk-lm-<identifier>:<passkey>`; the SDK sends the two parts.
        const ok = token === null || `sk-lm-${msg.clientIdentifier}:${msg.clientPasskey}` === token;
        send(ok ? { success: true } : { success: false, error: "Invalid passkey" });
        authed = ok;
        return;
      }
      state.requests.push({
        method: "WS",
        path: `${ns}/${msg.endpoint ?? msg.type}`,
        authorization: null,
        body: msg,
      });
      if (msg.type === "keepAlive") return send({ type: "keepAliveAck" });
      if (msg.type === "rpcCall") {
        try {
          send({
            type: "rpcResult",
            callId: msg.callId,
            result: rpc(state, ns, String(msg.endpoint), msg.parameter),
          });
        } catch (err) {
          send({ type: "rpcError", callId: msg.callId, error: serializeError(err) });
        }
        return;
      }
      if (msg.type === "channelSend") {
        const m = msg.message as { type?: string } | undefined;
        if (m?.type === "cancel") channels.get(Number(msg.channelId))?.abort();
        return;
      }
      if (msg.type !== "channelCreate") return;
      const channelId = Number(msg.channelId);
      const ctl = new AbortController();
      channels.set(channelId, ctl);
      const out = (message: unknown) => send({ type: "channelSend", channelId, message });
      const p = (msg.creationParameter ?? {}) as Record<string, unknown>;
      const work = msg.endpoint === "loadModel"
        ? loadChannel(state, p, out, ctl.signal)
        : msg.endpoint === "predict"
        ? predictChannel(state, p, out, ctl.signal, () => socket.close())
        : msg.endpoint === "alive"
        ? new Promise<void>((resolve) => ctl.signal.addEventListener("abort", () => resolve()))
        : Promise.reject(new Error(`Unknown channel endpoint "${msg.endpoint}"`));
      work.then(
        () => send({ type: "channelClose", channelId }),
        (err) => send({ type: "channelError", channelId, error: serializeError(err) }),
      ).finally(() => channels.delete(channelId));
    };
    return response;
  };
  return {
    upgrade,
    close: () => {
      for (const s of sockets) s.close();
    },
  };
}
