/**
 * The log monitor's settings screen (an island): the shared settings form over the sections of
 * `../settings_screen.ts`, with the log folder's files to choose from.
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
import { logMonitorSections } from "../settings_screen.ts";

/** Props of the log monitor's settings screen. */
export interface LogMonitorSettingsProps extends SettingsProps {
  /** The log folder's files. */
  files: string[];
}

/** The log monitor's settings screen. */
export default function LogMonitorSettings(props: LogMonitorSettingsProps) {
  const form = useMemo(() => {
    const stored = [
      String(props.values.default_log_file ?? ""),
      ...((props.values.alerts_monitored_logs ?? []) as string[]),
    ].filter((f) => f !== "");
    const files = [...new Set([...props.files, ...stored])].sort();
    return createSettingsForm(PLUGIN_ID, logMonitorSections(files), props);
  }, []);
  return <SettingsForm form={form} />;
}
