/**
 * Charts drawn on the server as SVG and HTML, for pages that need no script for them (Home):
 * a ranked bar list and a donut with its legend. Colours are classes (`c0`…`c9`, the chart
 * palette in the stylesheet), sizes are SVG attributes: nothing an inline style would need
 * (the CSP forbids those). Text is HTML, so it follows the theme and stays readable.
 *
 * @module
 */
import type { ComponentChildren } from "preact";

/** One bar. */
export interface BarItem {
  label: string;
  /** The full name, shown on hover. */
  title?: string;
  value: number;
  /** Where the label links to. */
  href?: string;
}

/** Props of {@linkcode BarList}. */
export interface BarListProps {
  id: string;
  /** What the list shows, for assistive technology. */
  label: string;
  items: BarItem[];
  /** Formats a value with its unit. */
  format(value: number): string;
}

/** Bars ranked as given, each with its label and value; the longest is the largest value. */
export function BarList({ id, label, items, format }: BarListProps) {
  const max = Math.max(0, ...items.map((i) => i.value));
  return (
    <ol class="barlist" id={id} aria-label={label}>
      {items.map((item, i) => {
        const width = max > 0 ? Math.max(0.5, (item.value / max) * 100) : 0;
        const text: ComponentChildren = item.href
          ? <a href={item.href} title={item.title}>{item.label}</a>
          : <span title={item.title}>{item.label}</span>;
        return (
          <li key={`${item.label}-${i}`}>
            <span class="barlist-label">{text}</span>
            <svg
              class="barlist-bar"
              viewBox="0 0 100 10"
              preserveAspectRatio="none"
              aria-hidden="true"
            >
              <rect class="c0" x="0" y="0" height="10" width={width.toFixed(2)} rx="1" />
            </svg>
            <span class="barlist-value">{format(item.value)}</span>
          </li>
        );
      })}
    </ol>
  );
}

/** One slice. */
export interface Slice {
  label: string;
  value: number;
}

/** Props of {@linkcode Donut}. */
export interface DonutProps {
  id: string;
  label: string;
  slices: Slice[];
  /** The unit of the values in the legend ("models"). */
  unit: string;
}

/** The circle's circumference is 100 (r = 100 / 2π), so a slice's dash is its percentage. */
const R = 15.9155;

/** A donut of the slices' shares and its legend (label, count, share). */
export function Donut({ id, label, slices, unit }: DonutProps) {
  const total = slices.reduce((a, s) => a + s.value, 0);
  let before = 0;
  return (
    <div class="donut" id={id}>
      <svg viewBox="0 0 42 42" role="img" aria-label={label}>
        <circle class="donut-hole" cx="21" cy="21" r={R} fill="none" stroke-width="6" />
        {total > 0 && slices.map((s, i) => {
          const share = (s.value / total) * 100;
          const offset = 25 - before; // start at 12 o'clock, clockwise
          before += share;
          return (
            <circle
              key={s.label}
              class={`c${i % 10}`}
              cx="21"
              cy="21"
              r={R}
              fill="none"
              stroke-width="6"
              stroke-dasharray={`${share.toFixed(3)} ${(100 - share).toFixed(3)}`}
              stroke-dashoffset={offset.toFixed(3)}
            >
              <title>{`${s.label}: ${s.value} ${unit}`}</title>
            </circle>
          );
        })}
      </svg>
      <ul class="legend">
        {slices.map((s, i) => (
          <li key={s.label}>
            <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">
              <rect class={`c${i % 10}`} width="10" height="10" rx="2" />
            </svg>
            <span>{s.label}</span>
            <span class="legend-value">
              {s.value} {unit} · {total > 0 ? Math.round((s.value / total) * 100) : 0}%
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
