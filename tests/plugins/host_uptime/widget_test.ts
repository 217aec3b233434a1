import assert from "node:assert/strict";
import {
  compactToggleMs,
  isCompact,
  nextPollMs,
  type UptimeView,
  widgetState,
} from "../../../plugins/host_uptime/mod.ts";

const VIEW: UptimeView = {
  uptime: "1d 1h 1m 1s",
  uptime_dhm: "1d 1h 1m",
  uptime_short: "1d1h1m",
  host_uptime: "1h 0m 0s",
  host_uptime_dhm: "0d 1h 0m",
  host_uptime_short: "1h0m",
  seconds: 90061,
  host_seconds: 3600,
  display_format: "full",
  poll_interval_seconds: 7,
  uptime_available: true,
  uptime_note: null,
  show_system_uptime: true,
  show_host_uptime: true,
  compact_display: false,
  compact_toggle_interval_seconds: 10,
};

Deno.test("widget rule 1: the next poll follows poll_interval_seconds (at least 1 s)", () => {
  assert.equal(nextPollMs(VIEW), 7000);
  assert.equal(nextPollMs({ ...VIEW, poll_interval_seconds: 0 }), 1000);
  assert.equal(nextPollMs(null), 5000);
});

Deno.test("widget rule 2: an unavailable uptime shows the unknown state and the note", () => {
  const s = widgetState({ ...VIEW, uptime_available: false, uptime_note: "No source" }, 0, 0);
  assert.equal(s.unknown, true);
  assert.match(s.text, /System unknown/);
  assert.match(s.tooltip, /No source/);
});

Deno.test("widget rule 3: hidden when both uptimes are off, shown with one of them on", () => {
  assert.equal(
    widgetState({ ...VIEW, show_system_uptime: false, show_host_uptime: false }, 0, 0).visible,
    false,
  );
  const host = widgetState({ ...VIEW, show_system_uptime: false }, 0, 0);
  assert.deepEqual([host.visible, host.text], [true, "Uptime: Host 1h 0m 0s"]);
  assert.equal(widgetState(VIEW, 0, 0).text, "Uptime: System 1d 1h 1m 1s | Host 1h 0m 0s");
});

Deno.test("widget rule 4: compact mode alternates only when both uptimes are on", () => {
  const compact = { ...VIEW, compact_display: true };
  assert.ok(isCompact(compact));
  assert.equal(widgetState(compact, 0, 0).text, "Uptime: System 1d 1h 1m 1s");
  assert.equal(widgetState(compact, 1, 0).text, "Uptime: Host 1h 0m 0s");
  assert.equal(compactToggleMs(compact), 10_000);
  assert.equal(compactToggleMs({ ...compact, compact_toggle_interval_seconds: 99 }), 5000);
  assert.ok(!isCompact({ ...compact, show_host_uptime: false }));
});

Deno.test("widget rule 5: the tooltip shows both start times in either mode", () => {
  const now = Date.UTC(2026, 0, 2, 12);
  for (const compact of [false, true]) {
    const s = widgetState({ ...VIEW, compact_display: compact }, 1, now);
    const lines = s.tooltip.split("\n");
    assert.equal(lines.length, 2);
    assert.ok(
      lines[0]!.startsWith("System started: ") &&
        lines[0]!.includes(new Date(now - 90061_000).toLocaleString()),
    );
    assert.ok(lines[1]!.includes(new Date(now - 3600_000).toLocaleString()));
  }
});

Deno.test("the widget text follows display_format with a fallback to the full form", () => {
  assert.equal(
    widgetState({ ...VIEW, display_format: "short" }, 0, 0).text,
    "Uptime: System 1d1h1m | Host 1h0m",
  );
  assert.equal(
    widgetState({ ...VIEW, display_format: "dh" }, 0, 0).text,
    "Uptime: System 1d 1h 1m 1s | Host 1h 0m 0s",
  );
});
