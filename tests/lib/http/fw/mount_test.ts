import assert from "node:assert/strict";
import { Hono } from "hono";
import { h } from "preact";
import {
  type AppProps,
  createDefine,
  type LayoutProps,
  type Manifest,
  mountRoutes,
  page,
  type RouteModule,
} from "../../../../lib/http/fw/mod.ts";

type State = { trail: string[]; user?: string };
const define = createDefine<State>();

/** A middleware that notes its name in the request's trail. */
const note = (name: string) =>
  define.middleware(async (c, next) => {
    c.set("trail", [...(c.var.trail ?? []), name]);
    await next();
  });

const layout = (name: string, config?: RouteModule["config"]): RouteModule => ({
  default: (p: LayoutProps) => h("div", { class: name }, h(p.Component, null)),
  config,
});

const app = (p: AppProps) =>
  h(
    "html",
    null,
    h("head", null, h("title", null, p.title)),
    h("body", null, h(p.Component, null)),
  );

const showTrail = define.page(({ state }) => h("p", { id: "trail" }, state.trail.join(">")));

const usersHandler = define.handlers({
  GET: (c) => page({ id: c.req.param("id") }, { title: `User ${c.req.param("id")}` }),
  POST: (c) => c.json({ saved: c.req.param("id") }, 201),
});

/** A project as the generator would list it. */
const manifest: Manifest = {
  routes: {
    "routes/_app.tsx": { default: app },
    "routes/_layout.tsx": layout("root"),
    "routes/_middleware.ts": { default: note("root") },
    "routes/index.tsx": { default: showTrail, meta: { title: "Home" } },
    "routes/users/_middleware.ts": { default: [note("users-a"), note("users-b")] },
    "routes/users/_layout.tsx": layout("users"),
    "routes/users/[id].tsx": {
      handler: usersHandler,
      default: define.page<typeof usersHandler>(({ data }) => h("p", { id: "user" }, data.id)),
    },
    "routes/users/new.tsx": { default: () => h("p", { id: "new" }, "static wins") },
    // The catch-all: the rest of the path, slashes included.
    "routes/files/[...path].ts": {
      handler: define.handlers({ GET: (c) => c.text(c.req.param("path") ?? "") }),
    },
    "routes/bare/_layout.tsx": layout("bare", { skipInheritedLayouts: true }),
    "routes/bare/index.tsx": { default: () => h("p", null, "bare") },
    "routes/api/echo.ts": {
      handler: define.handlers({ POST: async (c) => c.json(await c.req.json()) }),
    },
    "routes/_helpers.ts": { default: () => h("p", null, "never a route") },
    "plugins/demo/routes/index.tsx": { default: showTrail },
    "plugins/demo/routes/_layout.tsx": layout("demo"),
    "plugins/other/routes/index.tsx": { default: () => h("p", null, "not mounted") },
  },
  islands: {},
};

function build(include?: (file: string) => boolean): Hono {
  const hono = new Hono();
  mountRoutes(hono, manifest, {
    folders: [
      { dir: "routes", include },
      { dir: "plugins/demo/routes", at: "routes/users/demo", middleware: [note("demo")] },
    ],
  });
  return hono;
}

Deno.test("mountRoutes() renders a page inside its layouts and the app shell, with the module's title", async () => {
  const res = await build().request("/");
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.ok(html.startsWith("<!DOCTYPE html><html><head><title>Home</title>"), html);
  assert.ok(html.includes('<div class="root"><p id="trail">root</p></div>'), html);
});

Deno.test("mountRoutes() runs each folder's _middleware, outermost first, arrays in order", async () => {
  const html = await (await build().request("/users/7")).text();
  assert.ok(html.includes("<title>User 7</title>"), "the handler's title");
  assert.ok(html.includes('<div class="root"><div class="users"><p id="user">7</p>'), html);
  const trail = await (await build().request("/users/demo")).text();
  assert.ok(trail.includes("root>users-a>users-b>demo"), trail);
});

Deno.test("mountRoutes() answers other methods with their handler and static segments win", async () => {
  const post = await build().request("/users/9", { method: "POST" });
  assert.equal(post.status, 201);
  assert.deepEqual(await post.json(), { saved: "9" });
  assert.match(await (await build().request("/users/new")).text(), /static wins/);
  const rest = await build().request("/files/a/b/c.txt");
  assert.equal(await rest.text(), "a/b/c.txt");
  const echo = await build().request("/api/echo", { method: "POST", body: '{"x":1}' });
  assert.deepEqual(await echo.json(), { x: 1 });
  assert.equal((await build().request("/api/echo")).status, 404, "no GET handler, no page");
});

Deno.test("a layout with skipInheritedLayouts stands alone", async () => {
  const html = await (await build().request("/bare")).text();
  assert.ok(html.includes('<body><div class="bare"><p>bare</p></div></body>'), html);
});

Deno.test("a mounted folder serves at its place in the tree with the layouts above it", async () => {
  const html = await (await build().request("/users/demo")).text();
  assert.ok(html.includes('<div class="root"><div class="users"><div class="demo">'), html);
  assert.equal((await build().request("/plugins/other")).status, 404, "an unmounted folder");
});

Deno.test("files starting with _ are no routes and include() leaves files out", async () => {
  assert.equal((await build().request("/_helpers")).status, 404);
  const onlyUsers = build((file) => file.startsWith("routes/users/"));
  assert.equal((await onlyUsers.request("/")).status, 404);
  assert.equal((await onlyUsers.request("/users/1")).status, 200);
});

Deno.test("a handler answering neither a Response nor page data fails loudly", async () => {
  const hono = new Hono();
  hono.onError((err, c) => c.text(err.message, 500));
  mountRoutes(hono, {
    routes: { "routes/x.ts": { handler: { GET: () => "oops" as unknown as Response } } },
    islands: {},
  }, { folders: [{ dir: "routes" }] });
  const res = await hono.request("/x");
  assert.equal(res.status, 500);
  assert.match(await res.text(), /answered no Response/);
});
