/**
 * The uptime plugin's settings screen (an island).
 *
 * @module
 */
import { useMemo } from "preact/hooks";
import {
  createSettingsForm,
  SettingsForm,
  type SettingsProps,
} from "../../../lib/shared/settings/mod.ts";
import { PLUGIN_ID } from "../id.ts";
import { UPTIME_SECTIONS } from "../settings_screen.ts";

/** The uptime plugin's settings screen. */
export default function UptimeSettings(props: SettingsProps) {
  const form = useMemo(() => createSettingsForm(PLUGIN_ID, UPTIME_SECTIONS, props), []);
  return <SettingsForm form={form} />;
}
