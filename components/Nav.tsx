/**
 * The navigation bar: one link per view, the current one marked.
 *
 * @module
 */

const LINKS = [
  ["/", "Home"],
  ["/benchmark", "Benchmark"],
  ["/results", "Results"],
  ["/comparison", "Comparison"],
] as const;

/** Navigation links. */
export default function Nav(props: { path: string }) {
  return (
    <header class="topbar">
      <a class="brand" href="/">localbench</a>
      <nav>
        {LINKS.map(([href, label]) => (
          <a
            key={href}
            href={href}
            aria-current={props.path === href ? "page" : undefined}
          >
            {label}
          </a>
        ))}
      </nav>
    </header>
  );
}
