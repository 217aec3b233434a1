/**
 * The plugins' settings screens (browser code): the description of a screen (`spec.ts`), its
 * state and the host calls (`form_state.ts`, `settings_api.ts`), and the form that draws it
 * (`form.tsx`). A plugin's settings island describes its sections and renders
 * {@linkcode SettingsForm} with {@linkcode createSettingsForm}'s state.
 *
 * @module
 */
export { SettingsForm, type SettingsFormProps } from "./form.tsx";
export {
  createSettingsForm,
  type FormStatus,
  type SettingsForm as SettingsFormState,
} from "./form_state.ts";
export { settingNamed, SettingsRequestError } from "./settings_api.ts";
export { type Choice, type Field, fieldId, type Section, type SettingsProps } from "./spec.ts";
export { type FormValue, fromForm, toForm } from "./values.ts";
