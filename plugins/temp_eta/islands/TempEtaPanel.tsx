import { useEffect, useRef, useState } from "preact/hooks";
import {
  alertAction,
  applyEtaUpdate,
  applySettingsChanged,
  DEFAULT_UI,
  type HeaterInfo,
  type HeaterMap,
  heaterMapOf,
  heaterName,
  type HistoryPoint,
  isActiveHistory,
  isEtaAlert,
  isEtaUpdate,
  loadEtaStatus,
  orderHeaters,
  pushHistory,
  STATE_TEXT,
  tempText,
} from "../client.ts";
import type { UiConfig } from "../ui_config.ts";
import { openPush } from "../../../lib/shared/push_client.ts";

/** Props of the Temperature ETA panel. */
export interface TempEtaPanelProps {
  /** Seconds of history in the graph. @default 180 */
  graphSeconds?: number;
}

interface Toast {
  id: number;
  title: string;
  message: string;
}

const COLORS = ["#e5484d", "#4f7cff", "#22b07d", "#f5a524", "#8e4ec6", "#12a5b5"];
const TOAST_MS = 6000;

function permissionState(): "granted" | "denied" | "default" | "unsupported" {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/**
 * The Temperature ETA panel: per heater the temperatures, the ETA text, rate, percentage and
 * state; a sidebar list, a chart.js graph of temperature and ETA history, and the heating and
 * cooling sounds and notifications, each according to the plugin's settings. Live through the
 * push socket (`eta_update`, `eta_alert`, `settings_changed`).
 */
export default function TempEtaPanel({ graphSeconds = 180 }: TempEtaPanelProps) {
  const [heaters, setHeaters] = useState<HeaterMap>({});
  const [ui, setUi] = useState<UiConfig>(DEFAULT_UI);
  const [enabled, setEnabled] = useState(true);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState("");
  const [live, setLive] = useState(false);
  const [history, setHistory] = useState<Record<string, HistoryPoint[]>>({});
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [permission, setPermission] = useState(permissionState());
  const audio = useRef<HTMLAudioElement>(null);
  const toastId = useRef(0);

  const toast = (title: string, message: string) => {
    const id = ++toastId.current;
    setToasts((t) => [...t, { id, title, message }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), TOAST_MS);
  };

  useEffect(() => {
    const load = () =>
      loadEtaStatus().then((s) => {
        setHeaters(heaterMapOf(s.heaters));
        setUi(s.ui);
        setEnabled(s.enabled);
        setLoaded(true);
        setError("");
      }).catch((err) => setError(`Cannot load the ETA status: ${(err as Error).message}`));
    load();
    return openPush("temp_eta", (data) => {
      if (isEtaUpdate(data)) {
        setHeaters((h) => applyEtaUpdate(h, data));
        const point: HistoryPoint = {
          t: Date.now(),
          actual: Number(data.actual),
          target: typeof data.target === "number" ? data.target : null,
          eta: typeof data.eta_seconds === "number" ? data.eta_seconds : null,
        };
        setHistory((h) => pushHistory(h, data.heater, point, graphSeconds * 1000));
      } else if (isEtaAlert(data)) {
        const action = alertAction(data, permissionState());
        if (action.sound && audio.current) {
          audio.current.src = action.sound;
          audio.current.dataset.played = action.sound;
          audio.current.play().catch(() => {});
        }
        if (action.notify === "system") {
          new Notification(action.title, {
            body: data.message,
            tag: `${data.heater}-${data.event}`,
          });
        } else if (action.notify === "toast") toast(action.title, data.message);
      } else if (data.type === "settings_changed") {
        if (typeof data.enabled === "boolean") setEnabled(data.enabled);
        setUi((current) => applySettingsChanged(current, data).ui);
      }
    }, (open) => {
      setLive(open);
      if (open) load();
    });
  }, []);

  const list = orderHeaters(Object.values(heaters));
  return (
    <div class="eta-layout">
      {ui.show_in_sidebar
        ? (
          <aside class="eta-sidebar" data-testid="eta-sidebar">
            <h2>Temperatures</h2>
            {list.length === 0 ? <p class="hint">No heater data yet</p> : null}
            <ul>
              {list.map((h) => (
                <li key={h.heater} class={`eta-${h.state}`}>
                  <span class="name">{heaterName(h.heater)}</span>
                  <span class="temps">{tempText(h)}</span>
                  <span class="eta">{h.display?.eta ?? STATE_TEXT[h.state]}</span>
                </li>
              ))}
            </ul>
          </aside>
        )
        : null}
      <section class="eta-main">
        <div class="toolbar">
          <span class={`push-state ${live ? "on" : "off"}`}>{live ? "live" : "offline"}</span>
          {permission === "default"
            ? (
              <button
                type="button"
                onClick={() =>
                  Notification.requestPermission().then(() => setPermission(permissionState()))}
              >
                Enable notifications
              </button>
            )
            : null}
          {ui.heating_sound_url
            ? (
              <button
                type="button"
                onClick={() => {
                  if (!audio.current) return;
                  audio.current.src = ui.heating_sound_url!;
                  audio.current.play().catch(() => {});
                }}
              >
                Test sound
              </button>
            )
            : null}
        </div>
        {error ? <p class="error" role="alert">{error}</p> : null}
        {!enabled
          ? <p class="banner" data-testid="eta-disabled">The Temperature ETA plugin is disabled.</p>
          : null}
        {loaded && enabled && list.length === 0 ? <p class="hint">No heater data yet</p> : null}
        <div class="eta-cards">
          {list.map((h) => <HeaterCard key={h.heater} h={h} ui={ui} />)}
        </div>
        {ui.show_in_graph ? <EtaGraph history={history} windowSeconds={graphSeconds} /> : null}
        <audio ref={audio} preload="none" data-testid="eta-audio" />
        <div class="toasts" aria-live="polite">
          {toasts.map((t) => (
            <div key={t.id} class="toast" role="status" data-testid="toast">
              <strong>{t.title}</strong> {t.message}
            </div>
          ))}
        </div>
      </section>
    </div>
  );
}

function HeaterCard({ h, ui }: { h: HeaterInfo; ui: UiConfig }) {
  const d = h.display ?? { eta: null };
  const pct = ui.show_percentage && h.progress !== null ? Math.round(h.progress) : null;
  return (
    <article
      class={`eta-card eta-${h.state}`}
      data-testid={`heater-${h.heater}`}
      data-state={h.state}
    >
      <header>
        <strong>{heaterName(h.heater)}</strong>
        <span class={`state state-${h.state}`} data-testid="state">{STATE_TEXT[h.state]}</span>
      </header>
      <div class="temps" data-testid="temps">{tempText(h)}</div>
      <div class="eta-line">
        <span class="eta" data-testid="eta">{d.eta ?? "—"}</span>
        {ui.show_rate && d.rate ? <span class="rate" data-testid="rate">{d.rate}</span> : null}
        {ui.show_percentage && d.percentage
          ? <span class="pct" data-testid="percentage">{d.percentage}</span>
          : null}
      </div>
      {pct !== null && d.eta
        ? (
          <progress
            class="progress"
            aria-hidden="true"
            max={100}
            value={Math.min(100, Math.max(0, pct))}
          />
        )
        : null}
    </article>
  );
}

function EtaGraph(
  { history, windowSeconds }: { history: Record<string, HistoryPoint[]>; windowSeconds: number },
) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // deno-lint-ignore no-explicit-any
  const chart = useRef<any>(null);
  useEffect(() => {
    let cancelled = false;
    const now = Date.now();
    const names = Object.keys(history).sort().filter((n) => isActiveHistory(history[n] ?? []));
    const oldest = Math.min(now, ...names.map((n) => history[n]?.[0]?.t ?? now));
    const min = -Math.min(windowSeconds, Math.max(30, Math.ceil((now - oldest) / 1000)));
    const datasets = names.flatMap((name, i) => {
      const color = COLORS[i % COLORS.length]!;
      const pts = history[name] ?? [];
      const xy = (f: (p: HistoryPoint) => number | null) =>
        pts.map((p) => ({ x: (p.t - now) / 1000, y: f(p) }));
      return [
        { label: `${heaterName(name)} °C`, data: xy((p) => p.actual), borderColor: color },
        {
          label: `${heaterName(name)} target`,
          data: xy((p) => p.target),
          borderColor: color,
          borderDash: [6, 4],
          borderWidth: 1,
        },
        {
          label: `${heaterName(name)} ETA s`,
          data: xy((p) => p.eta),
          borderColor: color,
          borderDash: [2, 2],
          yAxisID: "y1",
        },
      ].map((d) => ({ ...d, pointRadius: 0, tension: 0.2, spanGaps: false }));
    });
    import("../../../lib/shared/chart_setup.ts").then(({ Chart }) => {
      if (cancelled || !canvas.current) return;
      if (chart.current) {
        chart.current.data.datasets = datasets;
        chart.current.options.scales.x.min = min;
        chart.current.update("none");
        return;
      }
      chart.current = new Chart(canvas.current, {
        type: "line",
        data: { datasets },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          parsing: false,
          scales: {
            x: {
              type: "linear",
              min,
              max: 0,
              title: { display: true, text: "seconds" },
            },
            y: { title: { display: true, text: "°C" } },
            y1: {
              position: "right",
              beginAtZero: true,
              grid: { drawOnChartArea: false },
              title: { display: true, text: "ETA (s)" },
            },
          },
          plugins: { legend: { labels: { boxWidth: 12, font: { size: 10 } } } },
        },
      });
      canvas.current.dataset.drawn = "true";
    });
    return () => {
      cancelled = true;
    };
  }, [history]);
  useEffect(() => () => chart.current?.destroy(), []);
  return (
    <div class="eta-graph" data-testid="eta-graph">
      <canvas ref={canvas} role="img" aria-label="Temperature and ETA history" />
    </div>
  );
}
