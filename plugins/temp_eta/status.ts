/**
 * The status of one heater as the plugin publishes it (push `eta_update`, MQTT, status route).
 *
 * @module
 */

/**
 * States of a heater:
 * - `heating` / `cooling`: an ETA is shown;
 * - `stalled`: the rate is below `min_rate`;
 * - `calculating`: too few samples yet, or the ETA is above `max_eta`;
 * - `at_target`: heating, within `heating_threshold` of the target;
 * - `cooled_down`: off, within `cooling_threshold` of (or below) the cooling target;
 * - `idle`: nothing to estimate (the direction is disabled).
 */
export type EtaState =
  | "heating"
  | "cooling"
  | "stalled"
  | "calculating"
  | "at_target"
  | "cooled_down"
  | "idle";

/** The direction being estimated. */
export type EtaKind = "heating" | "cooling";

/** One heater's status. The first nine fields are the MQTT payload (DECISIONS.md). */
export interface HeaterStatus {
  heater: string;
  /** Seconds to go; null unless `state` is `heating` or `cooling`. */
  eta_seconds: number | null;
  eta_kind: EtaKind | null;
  state: EtaState;
  /** The heating target; null when the heater is off. */
  target: number | null;
  actual: number;
  /** The cooling target of this heater (°C); null when cooling is disabled. */
  cooling_target: number | null;
  /** Observed rate in °C/s (negative when cooling); null while there are too few samples. */
  rate: number | null;
  /** Epoch seconds. */
  timestamp: number;
  /** Progress from the segment's start temperature to the goal, 0..100; null when unknown. */
  progress: number | null;
  /** The method that produced the ETA. */
  method: "linear" | "exponential" | null;
}

/** The MQTT payload of a status: exactly the fields DECISIONS.md fixes. */
export function mqttPayload(s: HeaterStatus): Record<string, unknown> {
  return {
    heater: s.heater,
    eta_seconds: s.eta_seconds,
    eta_kind: s.eta_kind,
    state: s.state,
    target: s.target,
    actual: s.actual,
    cooling_target: s.cooling_target,
    rate: s.rate,
    timestamp: s.timestamp,
  };
}
