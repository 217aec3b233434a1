/**
 * The Benchmark page's machine picker: this machine or a fleet agent (those not running shown,
 * disabled, with their last heartbeat). Shown only when the dashboard has a fleet.
 *
 * @module
 */
import type { Signal } from "@preact/signals";
import type { MachineChoice } from "./fleet_state.ts";

/** Props of {@linkcode MachinePicker}. */
export interface MachinePickerProps {
  choices: MachineChoice[];
  /** The picked machine ("" for this one). */
  machine: Signal<string>;
}

/** The picker. */
export function MachinePicker({ choices, machine }: MachinePickerProps) {
  const picked = machine.value;
  // An agent that left the register stays listed while picked, so the choice is not lost.
  const listed = picked === "" || choices.some((c) => c.value === picked)
    ? choices
    : [...choices, { value: picked, label: `${picked} (gone)`, disabled: true }];
  return (
    <label class="machine-pick">
      <span>Run on</span>
      <select
        id="bench-machine"
        value={picked}
        onChange={(e) => machine.value = (e.target as HTMLSelectElement).value}
      >
        {listed.map((c) => (
          <option key={c.value} value={c.value} disabled={c.disabled}>{c.label}</option>
        ))}
      </select>
    </label>
  );
}
