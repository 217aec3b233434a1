/**
 * The page a browser gets when a page fails: the status and the message the JSON body would
 * carry (an expected failure's own words; an unexpected one only says "Internal server error").
 *
 * @module
 */
import type { ErrorPageProps } from "../lib/http/mod.ts";

/** A failed page. */
export default function ErrorPage({ status, error }: ErrorPageProps) {
  return (
    <section class="card error-page">
      <h1>Error {status}</h1>
      <p role="alert">{error}</p>
    </section>
  );
}
