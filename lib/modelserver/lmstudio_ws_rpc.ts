/**
 * A small client of the LM Studio SDK protocol's remote calls: one WebSocket to a namespace
 * (`ws://host:port/system`), the authentication frame, then `rpcCall` frames answered by
 * `rpcResult` or `rpcError` (raw JSON on the system namespace). It asks what SDK 1.5.0 cannot:
 * the SDK's schemas drop the `variants` and `selectedVariant` of `listDownloadedModels`, and it
 * has no `listDownloadedModelVariants`, so without `lms` every variant but the selected one
 * would stay unseen.
 *
 * @module
 */
import { messageOf } from "../error.ts";

/** The SDK's credentials (an LM Studio token split, or random ones as the SDK makes). */
export interface RpcCredentials {
  clientIdentifier: string;
  clientPasskey: string;
}

/** Calls one endpoint of the session's namespace. */
export type RpcCall = (endpoint: string, parameter?: unknown) => Promise<unknown>;

/** An error the server answered a call with (`rpcError`), as opposed to a transport failure. */
export class RpcError extends Error {
  constructor(readonly endpoint: string, message: string) {
    super(message);
    this.name = "RpcError";
  }
}

/** Random credentials, as the SDK sends when it has no token. */
export function randomCredentials(): RpcCredentials {
  const part = () => crypto.randomUUID().replaceAll("-", "").slice(0, 24);
  return { clientIdentifier: part(), clientPasskey: part() };
}

/**
 * Opens `url`, authenticates, runs `work` with a caller of the namespace's endpoints and closes.
 * Everything (connect, authentication, every call) must end within `timeoutMs`; then the socket
 * is closed and the open calls fail.
 */
export function withRpcSession<T>(
  url: string,
  credentials: RpcCredentials,
  work: (call: RpcCall) => Promise<T>,
  timeoutMs: number,
): Promise<T> {
  const ws = new WebSocket(url);
  const pending = new Map<
    number,
    { endpoint: string; resolve(v: unknown): void; reject(e: Error): void }
  >();
  let nextId = 0;
  let broken: Error | null = null;
  const fail = (err: Error) => {
    broken ??= err;
    for (const p of pending.values()) p.reject(broken);
    pending.clear();
  };
  const ready = Promise.withResolvers<void>();
  let authed = false;
  ws.onopen = () => ws.send(JSON.stringify({ authVersion: 1, ...credentials }));
  ws.onerror = (ev) => {
    const err = new Error((ev as ErrorEvent).message || `Cannot connect to ${url}`);
    fail(err);
    ready.reject(err);
  };
  ws.onclose = () => {
    const err = new Error(`The connection to ${url} closed`);
    fail(err);
    ready.reject(err);
  };
  ws.onmessage = (ev) => {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(String(ev.data));
    } catch (err) {
      return fail(new Error(`Cannot read a frame from ${url}: ${messageOf(err)}`));
    }
    if (!authed) {
      if (msg.success === true) {
        authed = true;
        return ready.resolve();
      }
      const err = new Error(`Failed to authenticate: ${String(msg.error ?? "refused")}`);
      fail(err);
      return ready.reject(err);
    }
    const call = pending.get(Number(msg.callId));
    if (call === undefined) return;
    pending.delete(Number(msg.callId));
    if (msg.type === "rpcResult") call.resolve(msg.result);
    else if (msg.type === "rpcError") {
      const e = (msg.error ?? {}) as { title?: unknown };
      call.reject(new RpcError(call.endpoint, String(e.title ?? "unknown error")));
    }
  };
  const call: RpcCall = (endpoint, parameter) => {
    if (broken !== null) return Promise.reject(broken);
    const callId = nextId++;
    const { promise, resolve, reject } = Promise.withResolvers<unknown>();
    pending.set(callId, { endpoint, resolve, reject });
    const frame: Record<string, unknown> = { type: "rpcCall", endpoint, callId };
    if (parameter !== undefined) frame.parameter = parameter;
    ws.send(JSON.stringify(frame));
    return promise;
  };
  const timer = setTimeout(() => {
    const err = new Error(`No answer from ${url} within ${timeoutMs} ms`);
    fail(err);
    ready.reject(err);
    ws.close();
  }, timeoutMs);
  ready.promise.catch(() => {}); // reported through the await below
  return (async () => {
    try {
      await ready.promise;
      return await work(call);
    } finally {
      clearTimeout(timer);
      await closed(ws);
    }
  })();
}

/** Closes the socket and waits (1 s at most) until it is closed. */
async function closed(ws: WebSocket): Promise<void> {
  ws.onerror = null;
  ws.onmessage = null;
  if (ws.readyState === WebSocket.CLOSED) return;
  const done = Promise.withResolvers<void>();
  ws.onclose = () => done.resolve();
  if (ws.readyState !== WebSocket.CLOSING) ws.close();
  const timer = setTimeout(done.resolve, 1000);
  await done.promise;
  clearTimeout(timer);
}
