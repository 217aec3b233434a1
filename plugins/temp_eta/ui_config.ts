/**
 * The display settings the panel, navbar and sidebar elements need, with the sound URLs resolved.
 *
 * @module
 */
import type { TempEtaSettings } from "./schema.ts";
import { soundUrl } from "./sounds.ts";

/** The display settings of the panel and its sounds. */
export interface UiConfig {
  show_in_graph: boolean;
  show_in_sidebar: boolean;
  show_in_navbar: boolean;
  show_rate: boolean;
  show_percentage: boolean;
  /** Sound to play when a heater reaches its target; null when off. */
  heating_sound_url: string | null;
  /** Sound to play when a heater has cooled down; null when off. */
  cooling_sound_url: string | null;
}

/** The panel's display settings. */
export function uiConfigOf(s: TempEtaSettings): UiConfig {
  return {
    show_in_graph: s.show_in_graph,
    show_in_sidebar: s.show_in_sidebar,
    show_in_navbar: s.show_in_navbar,
    show_rate: s.show_rate,
    show_percentage: s.show_percentage,
    heating_sound_url: s.heating_sound_enabled ? soundUrl("heating", s.heating_sound_file) : null,
    cooling_sound_url: s.cooling_sound_enabled ? soundUrl("cooling", s.cooling_sound_file) : null,
  };
}
