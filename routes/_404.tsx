/**
 * The page a browser gets for a path that matches nothing (API clients get
 * `{"error": "Not found", "code": "not_found"}`).
 *
 * @module
 */
import type { ErrorPageProps } from "../lib/http/mod.ts";

/** Not found. */
export default function NotFound({ url }: ErrorPageProps) {
  return (
    <section class="card error-page">
      <h1>Page not found</h1>
      <p>
        Nothing is served at <code>{url.pathname}</code>.
      </p>
    </section>
  );
}
