/**
 * The stylesheet and the small browser script of the HTML report (charts and the sortable table).
 * chart.js itself is inlined from its npm package by the page.
 *
 * @module
 */

/** The report's stylesheet. */
export const REPORT_CSS = `
:root { color-scheme: light; --fg: #1f2937; --muted: #6b7280; --line: #e5e7eb; --accent: #2563eb; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 "DejaVu Sans", system-ui, sans-serif; color: var(--fg); background: #f9fafb; }
main { max-width: 1200px; margin: 0 auto; padding: 24px; }
h1 { margin: 0 0 4px; font-size: 26px; }
h2 { margin: 32px 0 12px; font-size: 19px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
.muted { color: var(--muted); }
.warn { color: #b45309; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 12px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px; }
.card b { display: block; font-size: 17px; margin-top: 2px; overflow-wrap: anywhere; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 16px; }
.chart { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 8px; height: 360px; }
table { border-collapse: collapse; width: 100%; background: #fff; font-size: 13px; }
th, td { border-bottom: 1px solid var(--line); padding: 6px 8px; text-align: left; white-space: nowrap; }
th { background: #f3f4f6; position: sticky; top: 0; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort="ascending"]::after { content: " ▲"; }
table.sortable th[aria-sort="descending"]::after { content: " ▼"; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; }
.up { color: #15803d; } .down { color: #b91c1c; }
ul.recs li { margin: 4px 0; }
footer { margin: 40px 0 8px; color: var(--muted); font-size: 12px; }
`;

/** The browser script: draws the charts from the embedded specs and sorts tables on click. */
export const REPORT_SCRIPT = `
(function () {
  var specs = JSON.parse(document.getElementById("chart-specs").textContent);
  window.reportCharts = [];
  specs.forEach(function (s) {
    var cfg = s.config;
    cfg.options = Object.assign({}, cfg.options, { animation: false, maintainAspectRatio: false });
    if (cfg.type === "scatter") {
      cfg.options.plugins = Object.assign({}, cfg.options.plugins, { tooltip: { callbacks: {
        label: function (c) { return c.raw.label + ": " + c.raw.y.toFixed(1) + " tok/s, " + c.raw.x.toFixed(2) + " GB"; }
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
