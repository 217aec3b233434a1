/**
 * `GET /plugins/<id>/settings`: the Temperature ETA settings screen.
 *
 * @module
 */
import { page } from "../../../lib/http/mod.ts";
import { definePluginPages, SettingsFrame, settingsProps } from "../../../lib/host/mod.ts";
import TempEtaSettings from "../islands/TempEtaSettings.tsx";
import { PLUGIN_ID } from "../id.ts";
import { rangeHints } from "../schema.ts";
import { soundChoices, soundUrl } from "../sounds.ts";

const define = definePluginPages();

/** Page metadata. */
export const meta = { title: "Temperature settings" };

/** The settings, the sound choices and their URLs, and the ranges of the number settings. */
export const handler = define.handlers({
  GET(c) {
    const sounds = soundChoices();
    const urls = (kind: "heating" | "cooling") =>
      Object.fromEntries(sounds.map((s) => [s, soundUrl(kind, s)]));
    return page({
      ...settingsProps(c, PLUGIN_ID),
      sounds,
      soundUrls: { heating: urls("heating"), cooling: urls("cooling") },
      ranges: rangeHints(),
    });
  },
});

/** The Temperature ETA settings page. */
export default define.page<typeof handler>(function TemperatureSettingsPage({ data, state, url }) {
  return (
    <SettingsFrame title="Temperature settings" tabs={state.settingsNav} path={url.pathname}>
      <TempEtaSettings {...data} />
    </SettingsFrame>
  );
});
