/**
 * The peer of the measurement benchmark: a 20-line Python client (standard library only) that
 * streams a chat completion with `http.client` over one keep-alive connection, parses every
 * `data:` line as JSON, and reports its wall time and the server's `timings`. It runs as one
 * long-lived process reading one request body per stdin line, so its start-up is not measured.
 *
 * @module
 */

/** The client, as run by `python3 -c`. */
export const PYTHON_CLIENT = `
import http.client, json, sys, time
host, port = sys.argv[1], int(sys.argv[2])
conn = http.client.HTTPConnection(host, port)
for line in sys.stdin:
    body = line.encode()
    t0 = time.perf_counter()
    conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
    resp = conn.getresponse()
    first = last = None; events = 0; timings = {}
    for raw in resp:
        if not raw.startswith(b"data: ") or raw.startswith(b"data: [DONE]"): continue
        chunk = json.loads(raw[6:]); timings = chunk.get("timings", timings)
        delta = (chunk.get("choices") or [{}])[0].get("delta", {})
        if delta.get("content") is not None and "role" not in delta:
            now = time.perf_counter(); first = first or now; last = now; events += 1
    resp.read()  # the end of the body: the connection is ready for the next request
    wall = (time.perf_counter() - t0) * 1000
    ms = lambda t: (t - t0) * 1000 if t else None
    print(json.dumps({"wall_ms": wall, "ttft_ms": ms(first), "last_ms": ms(last),
                      "events": events, "timings": timings}), flush=True)
`;

/** What the Python client reports per request. */
export interface PythonRun {
  wall_ms: number;
  ttft_ms: number | null;
  last_ms: number | null;
  events: number;
  timings: { prompt_ms?: number; predicted_ms?: number; predicted_per_second?: number };
}

/** A running Python client. */
export interface PythonClient {
  run(body: Record<string, unknown>): Promise<PythonRun>;
  close(): Promise<void>;
}

/** Starts the client against `http://host:port`. */
export function startPythonClient(url: string): PythonClient {
  const u = new URL(url);
  const child = new Deno.Command("python3", {
    args: ["-c", PYTHON_CLIENT, u.hostname, u.port],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const nextLine = async (): Promise<string> => {
    for (;;) {
      const i = buffered.indexOf("\n");
      if (i >= 0) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 1);
        return line;
      }
      const { done, value } = await lines.read();
      if (done) throw new Error("the Python client exited");
      buffered += value;
    }
  };
  return {
    async run(body) {
      await writer.write(new TextEncoder().encode(`${JSON.stringify(body)}\n`));
      return JSON.parse(await nextLine()) as PythonRun;
    },
    async close() {
      await writer.close().catch(() => {});
      await lines.cancel().catch(() => {});
      await child.status;
    },
  };
}
