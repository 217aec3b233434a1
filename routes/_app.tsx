/**
 * The layout of every page: head, navigation and the page inside `<main>`.
 *
 * @module
 */
import type { LayoutProps } from "../lib/http/fw_render.ts";
import Nav from "../components/Nav.tsx";

/** The document shell. */
export default function App(props: LayoutProps) {
  const title = props.title ? `${props.title} · localbench` : "localbench";
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {props.styles.map((href) => <link rel="stylesheet" href={href} key={href} />)}
      </head>
      <body>
        <Nav path={props.path} />
        <main>{props.children}</main>
      </body>
    </html>
  );
}
