/**
 * The Temperature ETA settings screen (an island): estimation, heating and cooling (with their
 * sounds, playable), display (the top-bar ETAs), MQTT (broker, TLS, CA, credentials with the
 * password never shown, and the connection as it stands) and the advanced settings.
 *
 * @module
 */
import { useMemo } from "preact/hooks";
import {
  createSettingsForm,
  SettingsForm,
  type SettingsProps,
} from "../../../lib/shared/settings/mod.ts";
import { MqttState, PlaySound } from "../components/SettingsExtras.tsx";
import { PLUGIN_ID } from "../id.ts";
import { tempEtaSections } from "../settings_screen.ts";

/** Props of the Temperature ETA settings screen. */
export interface TempEtaSettingsProps extends SettingsProps {
  /** The sound choices: `default` and the files of the sounds folder. */
  sounds: string[];
  /** The URL of each sound choice, per event. */
  soundUrls: { heating: Record<string, string>; cooling: Record<string, string> };
  /** The range hint of each number setting (`rangeHints()` of `schema.ts`). */
  ranges: Record<string, string>;
}

/** The Temperature ETA settings screen. */
export default function TempEtaSettings(props: TempEtaSettingsProps) {
  const form = useMemo(
    () => createSettingsForm(PLUGIN_ID, tempEtaSections(props.sounds, props.ranges), props),
    [],
  );
  return (
    <SettingsForm
      form={form}
      after={{
        heating_sound_file: (
          <PlaySound form={form} field="heating_sound_file" urls={props.soundUrls.heating} />
        ),
        cooling_sound_file: (
          <PlaySound form={form} field="cooling_sound_file" urls={props.soundUrls.cooling} />
        ),
        mqtt_enabled: <MqttState />,
      }}
    />
  );
}
