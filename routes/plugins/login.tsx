/**
 * `GET /plugins/login?next=PATH`: the host's login form; after signing in the browser goes to
 * `next` (a path of this server only, else the plugins' first page).
 *
 * @module
 */
import LoginForm from "../../islands/LoginForm.tsx";
import { page, safeLocalPath } from "../../lib/http/mod.ts";
import { define, PAGES_BASE } from "../../lib/host/mod.ts";

/** Page metadata. */
export const meta = { title: "Log in" };

/** Where to go after signing in. */
export const handler = define.handlers({
  GET: (c) => page({ next: safeLocalPath(c.req.query("next"), `${PAGES_BASE}/`) }),
});

/** The login page. */
export default define.page<typeof handler>(function Login({ data }) {
  return (
    <section class="card login-card">
      <h1>Log in</h1>
      <LoginForm next={data.next} />
    </section>
  );
});
