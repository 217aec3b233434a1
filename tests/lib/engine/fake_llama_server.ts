/**
 * A stand-in for `llama-server` in router mode, for tests that must not need the real build: it
 * reads --host/--port, starts one long-running child (like the router's per-model servers), answers
 * `/health`, and exits on SIGTERM without stopping that child. `FAKE_MODE=exit` makes it fail at once.
 */

const args = Deno.args;
const flag = (name: string) => args[args.indexOf(name) + 1];

if (Deno.env.get("FAKE_MODE") === "exit") {
  Deno.stderr.writeSync(new TextEncoder().encode("error: couldn't bind HTTP server socket\n"));
  Deno.exit(1);
}

const child = new Deno.Command("sleep", { args: ["60"], stdout: "null", stderr: "null" }).spawn();
child.unref();
Deno.addSignalListener("SIGTERM", () => Deno.exit(0));

const started = Date.now();
Deno.serve({
  hostname: flag("--host") ?? "127.0.0.1",
  port: Number(flag("--port")),
  onListen: () =>
    Deno.stdout.writeSync(new TextEncoder().encode(`listening; args ${args.join(" ")}\n`)),
}, (req) => {
  const path = new URL(req.url).pathname;
  if (path === "/health") {
    return Date.now() - started < 150
      ? new Response("loading", { status: 503 })
      : Response.json({ status: "ok", cache: Deno.env.get("LLAMA_CACHE") });
  }
  return new Response("not found", { status: 404 });
});
