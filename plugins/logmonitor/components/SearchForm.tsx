/**
 * The search form: text or pattern, level filters, regular expression (when the host allows
 * it) and case sensitivity.
 *
 * @module
 */
import { LEVELS, type ViewerState } from "./viewer_state.ts";

/** The search form. */
export function SearchForm({ s }: { s: ViewerState }) {
  const regexEnabled = !!s.config.regexEnabled;
  const toggleLevel = (l: string) =>
    s.levels.value = s.levels.value.includes(l)
      ? s.levels.value.filter((x) => x !== l)
      : [...s.levels.value, l];
  return (
    <form
      class="search"
      onSubmit={(e) => {
        e.preventDefault();
        s.search(0);
      }}
    >
      <input
        type="search"
        placeholder="Search text or pattern"
        value={s.query.value}
        onInput={(e) => s.query.value = (e.target as HTMLInputElement).value}
        data-testid="query"
      />
      {LEVELS.map((l) => (
        <label key={l} class="level-filter">
          <input
            type="checkbox"
            checked={s.levels.value.includes(l)}
            onChange={() => toggleLevel(l)}
          />
          {l}
        </label>
      ))}
      <label title={regexEnabled ? "" : "Disabled by the setting regex_search_enabled"}>
        <input
          type="checkbox"
          checked={s.useRegex.value && regexEnabled}
          disabled={!regexEnabled}
          onChange={() => s.useRegex.value = !s.useRegex.value}
          data-testid="regex"
        />{" "}
        regex
      </label>
      <label>
        <input
          type="checkbox"
          checked={s.caseSensitive.value}
          onChange={() => s.caseSensitive.value = !s.caseSensitive.value}
        />{" "}
        match case
      </label>
      <button type="submit" data-testid="search">Search</button>
    </form>
  );
}
