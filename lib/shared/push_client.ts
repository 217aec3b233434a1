/**
 * The browser side of the plugin host's push socket, shared by every island (no Deno APIs).
 *
 * @module
 */

/** A plugin message from the push socket. */
export interface PushMessage {
  plugin?: { plugin: string; data: Record<string, unknown> };
}

/** Opens the push socket (session cookie auth) and calls `onData` for one plugin's messages. */
export function openPush(
  pluginId: string,
  onData: (data: Record<string, unknown>) => void,
  onState?: (open: boolean) => void,
): () => void {
  let ws: WebSocket | null = null;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const connect = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/push`);
    ws.onopen = () => onState?.(true);
    ws.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data)) as PushMessage;
      if (msg.plugin?.plugin === pluginId) onData(msg.plugin.data);
    };
    ws.onclose = () => {
      onState?.(false);
      if (!closed) retry = setTimeout(connect, 3000);
    };
  };
  connect();
  return () => {
    closed = true;
    clearTimeout(retry);
    ws?.close();
  };
}
