import assert from "node:assert/strict";
import {
  displayText,
  formatEta,
  formatPercentage,
  formatRate,
} from "../../../plugins/temp_eta/format.ts";

Deno.test("formatEta() 'seconds' gives <n>s", () => {
  assert.equal(formatEta(0, "seconds"), "0s");
  assert.equal(formatEta(42.4, "seconds"), "42s");
  assert.equal(formatEta(90, "seconds"), "90s");
  assert.equal(formatEta(3725.6, "seconds"), "3726s");
});

Deno.test("formatEta() 'minutes' gives <n.n>m", () => {
  assert.equal(formatEta(90, "minutes"), "1.5m");
  assert.equal(formatEta(30, "minutes"), "0.5m");
  assert.equal(formatEta(3600, "minutes"), "60.0m");
});

Deno.test("formatEta() 'hours' gives <n.n>h", () => {
  assert.equal(formatEta(1800, "hours"), "0.5h");
  assert.equal(formatEta(5400, "hours"), "1.5h");
  assert.equal(formatEta(7200, "hours"), "2.0h");
});

Deno.test("formatEta() 'hms' gives HH:MM:SS", () => {
  assert.equal(formatEta(5400, "hms"), "01:30:00");
  assert.equal(formatEta(59.6, "hms"), "00:01:00");
  assert.equal(formatEta(3725, "hms"), "01:02:05");
  assert.equal(formatEta(0, "hms"), "00:00:00");
});

Deno.test("formatEta() 'auto' picks seconds, minutes or hours by magnitude", () => {
  assert.equal(formatEta(45, "auto"), "45s");
  assert.equal(formatEta(59.4, "auto"), "59s");
  assert.equal(formatEta(59.6, "auto"), "1.0m");
  assert.equal(formatEta(150, "auto"), "2.5m");
  assert.equal(formatEta(3599, "auto"), "60.0m");
  assert.equal(formatEta(5400, "auto"), "1.5h");
});

Deno.test("formatEta() never shows a negative time", () => {
  assert.equal(formatEta(-3, "seconds"), "0s");
});

Deno.test("formatRate() shows a sign, two decimals and °C/s", () => {
  assert.equal(formatRate(0.5), "+0.50°C/s");
  assert.equal(formatRate(2), "+2.00°C/s");
  assert.equal(formatRate(-1.234), "-1.23°C/s");
  assert.equal(formatRate(-0.001), "+0.00°C/s");
});

Deno.test("formatPercentage() rounds and clamps to 0..100", () => {
  assert.equal(formatPercentage(45.4), "45%");
  assert.equal(formatPercentage(120), "100%");
  assert.equal(formatPercentage(-5), "0%");
});

Deno.test("displayText() follows time_format, show_rate and show_percentage", () => {
  const status = { state: "heating", eta_seconds: 90, rate: 0.52, progress: 45 };
  assert.deepEqual(
    displayText(status, { time_format: "minutes", show_rate: true, show_percentage: true }),
    { eta: "1.5m", rate: "+0.52°C/s", percentage: "45%" },
  );
  assert.deepEqual(
    displayText(status, { time_format: "hms", show_rate: false, show_percentage: false }),
    { eta: "00:01:30" },
  );
});

Deno.test("displayText() shows 'stalled' and 'calculating' instead of a time", () => {
  const s = { time_format: "auto", show_rate: true, show_percentage: false } as const;
  assert.deepEqual(
    displayText({ state: "stalled", eta_seconds: null, rate: 0.01, progress: 10 }, s),
    { eta: "stalled", rate: "+0.01°C/s" },
  );
  assert.deepEqual(
    displayText({ state: "calculating", eta_seconds: null, rate: null, progress: null }, s),
    { eta: "calculating" },
  );
  assert.deepEqual(
    displayText({ state: "at_target", eta_seconds: null, rate: 0, progress: null }, s),
    { eta: null },
  );
});
