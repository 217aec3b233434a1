/**
 * The Temperature ETA settings screen's own parts: "Play" beside a sound choice, and the MQTT
 * connection as the plugin reports it (polled while the screen is open).
 *
 * @module
 */
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { fromForm, type SettingsFormState } from "../../../lib/shared/settings/mod.ts";
import { ETA_API } from "../status_feed.ts";

/** Plays the sound chosen in the form's field `field` (its URL looked up in `urls`). */
export function PlaySound(
  { form, field, urls }: { form: SettingsFormState; field: string; urls: Record<string, string> },
) {
  const audio = useRef<HTMLAudioElement>(null);
  const spec = form.sections.flatMap((s) => s.fields).find((f) => f.key === field)!;
  const url = urls[String(fromForm(spec, form.form.value[field] ?? ""))];
  return (
    <div class="probe">
      <button
        type="button"
        class="secondary"
        data-testid={`play-${field}`}
        disabled={!url}
        onClick={() => {
          const el = audio.current;
          if (!el || !url) return;
          el.src = url;
          el.play().catch(() => {});
        }}
      >
        Play
      </button>
      <audio ref={audio} preload="none" />
    </div>
  );
}

interface MqttView {
  enabled: boolean;
  connected: boolean;
  broker: string | null;
  last_error: string | null;
}

/** The MQTT connection: off, connected to the broker, or not connected and why. */
export function MqttState() {
  const state = useSignal<MqttView | null>(null);
  useEffect(() => {
    let stopped = false;
    const load = async () => {
      try {
        const res = await fetch(ETA_API, { credentials: "same-origin" });
        if (res.ok) state.value = (await res.json()).mqtt as MqttView;
        else await res.body?.cancel();
      } catch {
        // The host is restarting: the next poll tells.
      }
      if (!stopped) timer = setTimeout(load, 3000);
    };
    let timer = setTimeout(load, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  const m = state.value;
  const text = !m
    ? ""
    : !m.enabled
    ? "MQTT is off."
    : m.connected
    ? `Connected to ${m.broker ?? "the broker"}.`
    : `Not connected${m.broker ? ` to ${m.broker}` : ""}${
      m.last_error ? `: ${m.last_error}` : "."
    }`;
  return (
    <p
      class={`probe-result ${m?.enabled && !m.connected ? "fail" : m?.connected ? "ok" : ""}`}
      role="status"
      aria-live="polite"
      data-testid="mqtt-state"
    >
      {text}
    </p>
  );
}
