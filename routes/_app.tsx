/**
 * The document shell of every page (the dashboard's and the plugin host's): head, the
 * stylesheets (the dashboard's, then the plugins' that `deno task build` joins from
 * `plugins/<id>/styles.css`), and the page in its layouts as the body. The island boot script is added by the
 * framework when the page has islands.
 *
 * @module
 */
import type { AppProps } from "../lib/http/mod.ts";

/** The document shell. */
export default function App({ title, Component }: AppProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title ? `${title} · localbench` : "localbench"}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/styles.css" />
        <link rel="stylesheet" href="/_islands/plugins.css" />
      </head>
      <body>
        <Component />
      </body>
    </html>
  );
}
