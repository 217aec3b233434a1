/**
 * "Test connection" on the branch controller's settings screen: checks the hub address typed in
 * the form (saved or not) with the `test_connection` command and shows the result in words; a
 * refused field shows the host's message on that field.
 *
 * @module
 */
import { useSignal } from "@preact/signals";
import {
  fromForm,
  settingNamed,
  type SettingsFormState,
  SettingsRequestError,
} from "../../../lib/shared/settings/mod.ts";
import { API_BASE } from "../panel_client.ts";
import { BRANCH_SECTIONS } from "../settings_screen.ts";

const hubField = (key: string) => BRANCH_SECTIONS[0]!.fields.find((f) => f.key === key)!;

/** The hub address in the form, as `test_connection` takes it. */
export function typedTarget(form: SettingsFormState): Record<string, unknown> {
  return Object.fromEntries(
    ["host", "port", "path"].map((k) => [k, fromForm(hubField(k), form.form.value[k] ?? "")]),
  );
}

/** The button and its result. */
export function TestConnection({ form }: { form: SettingsFormState }) {
  const busy = useSignal(false);
  const result = useSignal<{ ok: boolean; text: string } | null>(null);
  const run = async () => {
    busy.value = true;
    result.value = null;
    try {
      const res = await fetch(API_BASE, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": form.csrfToken },
        body: JSON.stringify({ command: "test_connection", ...typedTarget(form) }),
      });
      const body = await res.json().catch(() => ({})) as Record<string, unknown>;
      if (!res.ok) {
        const message = typeof body.error === "string" ? body.error : `HTTP ${res.status}`;
        throw new SettingsRequestError(
          message,
          res.status,
          settingNamed(body, ["host", "port", "path"]),
        );
      }
      result.value = body.ok === true
        ? { ok: true, text: `Connected: the hub reports ${body.channels} channels.` }
        : { ok: false, text: String(body.detail ?? body.reason ?? "The hub did not answer.") };
    } catch (err) {
      if (err instanceof SettingsRequestError && err.setting) return form.showError(err);
      result.value = { ok: false, text: err instanceof Error ? err.message : String(err) };
    } finally {
      busy.value = false;
    }
  };
  return (
    <div class="probe">
      <button
        type="button"
        class="secondary"
        data-testid="test-connection"
        disabled={busy.value || !form.csrfToken}
        onClick={run}
      >
        {busy.value ? "Testing…" : "Test connection"}
      </button>
      <span
        class={`probe-result ${result.value?.ok ? "ok" : "fail"}`}
        role="status"
        aria-live="polite"
        data-testid="probe-result"
      >
        {result.value?.text ?? ""}
      </span>
    </div>
  );
}
