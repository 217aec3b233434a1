/**
 * The document shell of the plugin host's pages: head (title, stylesheets) and the page as the
 * body. The navbar and heading are the page's own (`_layout.tsx`).
 *
 * @module
 */
import type { LayoutProps } from "../../lib/http/fw.ts";

/** The document shell. */
export default function HostApp(props: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        {props.styles.map((href) => <link rel="stylesheet" href={href} key={href} />)}
      </head>
      <body>{props.children}</body>
    </html>
  );
}
