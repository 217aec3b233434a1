/**
 * The branch controller's settings screen (an island): the hub address with "Test connection",
 * the failsafe grace, reconnect delays and automation options.
 *
 * @module
 */
import { useMemo } from "preact/hooks";
import {
  createSettingsForm,
  SettingsForm,
  type SettingsProps,
} from "../../../lib/shared/settings/mod.ts";
import { TestConnection } from "../components/TestConnection.tsx";
import { PLUGIN_ID } from "../id.ts";
import { BRANCH_SECTIONS } from "../settings_screen.ts";

/** The branch controller's settings screen. */
export default function BranchSettings(props: SettingsProps) {
  const form = useMemo(() => createSettingsForm(PLUGIN_ID, BRANCH_SECTIONS, props), []);
  return <SettingsForm form={form} after={{ path: <TestConnection form={form} /> }} />;
}
