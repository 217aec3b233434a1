/**
 * The stylesheet and the small browser script of the HTML report (charts and the sortable table).
 * chart.js itself is inlined from its npm package by the page.
 *
 * @module
 */

/**
 * The report's stylesheet: light and dark (the reader's system setting); tables fit the window
 * (headings and names wrap, numbers do not), and below 760 px the results become cards.
 */
export const REPORT_CSS = `
:root { color-scheme: light dark; --fg: #1f2937; --muted: #6b7280; --line: #e5e7eb; --accent: #2563eb;
  --bg: #f9fafb; --panel: #fff; --head: #f3f4f6; --warn: #b45309; --up: #15803d; --down: #b91c1c; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e5e7eb; --muted: #9ca3af; --line: #374151; --accent: #60a5fa; --bg: #0f172a;
    --panel: #111827; --head: #1f2937; --warn: #fbbf24; --up: #4ade80; --down: #f87171; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 "DejaVu Sans", system-ui, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 1400px; margin: 0 auto; padding: 24px 16px; }
h1 { margin: 0 0 4px; font-size: 26px; }
h2 { margin: 32px 0 12px; font-size: 19px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
.muted { color: var(--muted); }
.warn { color: var(--warn); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 12px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px; }
.card b { display: block; font-size: 17px; margin-top: 2px; overflow-wrap: anywhere; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(480px, 100%), 1fr)); gap: 16px; }
.chart { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 8px; height: 360px; }
table { border-collapse: collapse; width: 100%; background: var(--panel); font-size: 13px; }
th, td { border-bottom: 1px solid var(--line); padding: 6px 7px; text-align: left; white-space: nowrap; }
th { background: var(--head); position: sticky; top: 0; white-space: normal; vertical-align: bottom; }
td.wrap { white-space: normal; overflow-wrap: anywhere; min-width: 7em; }
td.list { white-space: normal; min-width: 9em; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort="ascending"]::after { content: " ▲"; }
table.sortable th[aria-sort="descending"]::after { content: " ▼"; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; }
.scroll + .scroll { margin-top: 12px; }
.up { color: var(--up); } .down { color: var(--down); }
ul.recs li { margin: 4px 0; }
footer { margin: 40px 0 8px; color: var(--muted); font-size: 12px; }
@media (max-width: 760px) {
  main { padding: 16px 10px; }
  .scroll:has(table.stacked) { overflow: visible; border: 0; }
  table.stacked, table.stacked tbody { display: block; background: none; }
  table.stacked thead { display: none; }
  table.stacked tr { display: block; background: var(--panel); border: 1px solid var(--line);
    border-radius: 8px; margin: 0 0 10px; padding: 4px 0; }
  table.stacked td { display: flex; justify-content: space-between; gap: 12px; border: 0;
    padding: 3px 10px; white-space: normal; text-align: right; }
  table.stacked td::before { content: attr(data-label); color: var(--muted); text-align: left; }
  table.stacked td:first-child { font-weight: 600; text-align: left; }
  table.stacked td:first-child::before { content: none; }
}
`;

/** The browser script: draws the charts from the embedded specs and sorts tables on click. */
export const REPORT_SCRIPT = `
(function () {
  var specs = JSON.parse(document.getElementById("chart-specs").textContent);
  if (window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches) {
    Chart.defaults.color = "#d1d5db";
    Chart.defaults.borderColor = "rgba(209, 213, 219, 0.16)";
  }
  window.reportCharts = [];
  specs.forEach(function (s) {
    var cfg = s.config;
    cfg.options = Object.assign({}, cfg.options, { animation: false, maintainAspectRatio: false });
    if (cfg.type === "scatter") {
      cfg.options.plugins = Object.assign({}, cfg.options.plugins, { tooltip: { callbacks: {
        label: function (c) { return c.raw.label + ": " + c.raw.y.toFixed(1) + " tok/s, " + c.raw.x.toFixed(2) + " GiB"; }
      } } });
    }
    window.reportCharts.push(new Chart(document.getElementById("chart-" + s.id), cfg));
  });
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var heads = table.querySelectorAll("th");
    heads.forEach(function (th, col) {
      th.addEventListener("click", function () {
        var dir = th.getAttribute("aria-sort") === "descending" ? "ascending" : "descending";
        heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir);
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[col].getAttribute("data-v"), y = b.cells[col].getAttribute("data-v");
          var nx = parseFloat(x), ny = parseFloat(y);
          if (x === "" || y === "") return (x === "" ? 1 : 0) - (y === "" ? 1 : 0);
          var c = !isNaN(nx) && !isNaN(ny) ? nx - ny : String(x).localeCompare(String(y));
          return dir === "ascending" ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  window.reportReady = true;
})();
`;
