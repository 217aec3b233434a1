/**
 * The Benchmark view's form state as signals and its actions: the values of every parameter,
 * the presets (load, save, delete), start / pause / resume / stop, and the last message.
 * Browser code.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import { api, type ApiError } from "./api_client.ts";
import {
  fieldMessage,
  fieldOfError,
  type FormField,
  formToBody,
  type FormValues,
  presetToForm,
} from "../lib/shared/form_fields.ts";

/** A preset as the list shows it. */
export interface PresetItem {
  name: string;
  readonly: boolean;
}

/** The form's state and actions. */
export interface BenchForm {
  fields: FormField[];
  values: Signal<FormValues>;
  /** Field id → the server's message about that field's value. */
  fieldErrors: Signal<Record<string, string>>;
  /** Sets one field (and clears its error). */
  set(id: string, value: string | boolean): void;
  presets: Signal<PresetItem[]>;
  /** The loaded preset ("" for none). */
  preset: Signal<string>;
  saveName: Signal<string>;
  /** The last action's note. */
  message: Signal<string>;
  /** The last action's failure (shown as an alert). */
  error: Signal<string>;
  /** A start request is on its way. */
  busy: Signal<boolean>;
  /** Incremented by each accepted start: the live view comes into view. */
  started: Signal<number>;
  /** Where Start runs the benchmark: "" this machine, else a fleet agent's name. */
  machine: Signal<string>;
  start(): Promise<void>;
  control(action: "pause" | "resume" | "stop"): Promise<void>;
  loadPreset(name: string): Promise<void>;
  savePreset(): Promise<void>;
  deletePreset(): Promise<void>;
}

/** Creates the form's state. */
export function createBenchForm(fields: FormField[], presets: PresetItem[]): BenchForm {
  const say = async (what: () => Promise<string | void>) => {
    f.error.value = "";
    try {
      f.message.value = (await what()) ?? "";
    } catch (e) {
      f.message.value = "";
      f.error.value = (e as Error).message;
    }
  };
  const refreshPresets = async () => {
    f.presets.value = (await api<{ presets: PresetItem[] }>("/api/presets")).presets;
  };
  const f: BenchForm = {
    fields,
    values: signal({}),
    fieldErrors: signal({}),
    set(id, value) {
      f.values.value = { ...f.values.value, [id]: value };
      if (f.fieldErrors.value[id]) {
        const { [id]: _gone, ...rest } = f.fieldErrors.value;
        f.fieldErrors.value = rest;
      }
    },
    presets: signal(presets),
    preset: signal(""),
    saveName: signal(""),
    message: signal(""),
    error: signal(""),
    busy: signal(false),
    started: signal(0),
    machine: signal(""),
    start: () =>
      say(async () => {
        const preset = f.preset.value;
        const machine = f.machine.value;
        const body = {
          ...formToBody(fields, f.values.value),
          ...(preset ? { preset } : {}),
          ...(machine ? { machine } : {}),
        };
        f.busy.value = true;
        f.fieldErrors.value = {};
        let answer: { status?: string; job_id?: string } | null;
        try {
          answer = await api("/api/benchmark/start", {
            method: "POST",
            body: JSON.stringify(body),
          });
        } catch (err) {
          // A refused argument is said on its field, which takes the focus.
          const field = (err as ApiError).status === 400
            ? fieldOfError(fields, (err as Error).message)
            : null;
          if (!field) throw err;
          f.fieldErrors.value = { [field.id]: fieldMessage((err as Error).message) };
          requestAnimationFrame(() => document.getElementById(`field-${field.id}`)?.focus());
          return "";
        } finally {
          f.busy.value = false;
        }
        f.started.value++;
        return answer?.status === "queued"
          ? `Sent to ${machine} as job ${String(answer.job_id).slice(0, 8)}`
          : "";
      }),
    control: (action) =>
      say(async () => {
        await api(`/api/benchmark/${action}`, { method: "POST" });
      }),
    loadPreset: (name) =>
      say(async () => {
        f.preset.value = name;
        if (!name) {
          f.values.value = {};
          return;
        }
        const p = await api<{ values: Record<string, unknown> }>(`/api/presets/${name}`);
        f.values.value = presetToForm(fields, p.values);
        return `Preset ${name} loaded`;
      }),
    savePreset: () =>
      say(async () => {
        const name = f.saveName.value;
        const body = { name, values: formToBody(fields, f.values.value) };
        await api("/api/presets", { method: "POST", body: JSON.stringify(body) });
        await refreshPresets();
        return `Preset ${name} saved`;
      }),
    deletePreset: () =>
      say(async () => {
        const name = f.preset.value;
        await api(`/api/presets/${name}`, { method: "DELETE" });
        f.preset.value = "";
        await refreshPresets();
        return `Preset ${name} deleted`;
      }),
  };
  return f;
}
