/**
 * The ETA model: a heater approaches an asymptote like a first-order system,
 * `rate = k · (asymptote − x)`, and the asymptote is not known. Candidates are weighed by how well
 * a first-order line through each fits the segment's rate profile, against a prior:
 *
 * - heating: 0.4 of the prior sits on "the asymptote is the target" (a controller holding the
 *   target, e.g. the virtual printer), 0.6 on a full-power asymptote above it, log-normal around
 *   2.5 times the rise from the segment's start (heaters are sized well above their working
 *   temperature: the Marlin simulator's have 2.5–3.7×);
 * - cooling: the asymptote is the room, normal around 22 °C (σ 6 °C);
 * - a heater still moving is assumed to get there: candidates short of the goal are left out
 *   (whether it is stuck is decided elsewhere, see `settle.ts` and `classify.ts`).
 *
 * Heading above a heating target, the heater brakes as its controller does ({@linkcode slowdownOf}):
 * a hot end's PID over the last 10 °C (Marlin's `PID_FUNCTIONAL_RANGE`), from the band's edge a
 * first-order curve starting at the rate it had there, {@linkcode TOOL_SLOWDOWN} times slower
 * (calibrated on the Marlin simulator's hot end with Marlin's default gains); a bed or chamber
 * (bang-bang) not at all: full power to the goal. The ETA is the weighted median over the
 * candidates, with its quartiles (how sure). Pure functions, everything in the oriented `x` of
 * {@linkcode RateProfile}.
 *
 * @module
 */
import type { RateProfile } from "./profile.ts";

/** Where the heater is and where it goes, oriented (see `profile.ts`). */
export interface ApproachInput {
  /** Fitted temperature now. */
  x: number;
  /** Temperature at the segment's start. */
  start: number;
  /** The target (heating) or cooling target. */
  target: number;
  /** "Reached": within the threshold of the target, `target − threshold`. */
  goal: number;
  heating: boolean;
  /** How much slower than a first-order curve the controller brakes (heating). */
  slowdown?: number;
}

/** A window fit of the current state for a given asymptote (the exponential algorithm). */
export type CurrentFit = (asymptote: number) => { x: number; k: number } | null;

/** Width of the braking band before a heating target, °C (at least twice the threshold). */
export const BRAKING_BAND = 10;
/** How much slower than a first-order curve a braking controller approaches. */
export const BRAKING_SLOWDOWN = 1.2;

const PRIOR_AT_TARGET = 0.4;
/** Full-power asymptote: log-normal around this many times the rise, spread in ln units. */
const HEATING_CENTER = 2.5;
const HEATING_SPREAD = 0.6;
/** A heater switched off cools towards the room: normal around 22 °C, σ 6 °C. */
const ROOM = { center: 22, spread: 6 } as const;
const GRID = 24;

interface Candidate {
  asymptote: number;
  prior: number;
}

function candidates(i: ApproachInput): Candidate[] {
  const rise = i.target - i.start;
  const spread = i.heating ? 1 - PRIOR_AT_TARGET : 1;
  const out: Candidate[] = i.heating ? [{ asymptote: i.target, prior: PRIOR_AT_TARGET }] : [];
  for (let n = 0; n < GRID; n++) {
    const z = -2.5 + (5 * n) / (GRID - 1);
    const asymptote = i.heating
      ? i.start + HEATING_CENTER * Math.exp(HEATING_SPREAD * z) * Math.max(rise, 1)
      : -(ROOM.center + ROOM.spread * z);
    if (asymptote <= Math.max(i.target, i.goal) + 0.1) continue;
    out.push({ asymptote, prior: (spread * Math.exp(-z * z / 2)) / GRID });
  }
  return out;
}

/** The braking band's width for a heating input: {@linkcode BRAKING_BAND}, at least 2 thresholds. */
function bandOf(i: Pick<ApproachInput, "target" | "goal">): number {
  return Math.max(BRAKING_BAND, 2 * (i.target - i.goal));
}

/**
 * The braking prior of a heater by its name: a hot end (`toolN`) runs under PID, which brakes
 * well before the target; a bed or chamber is assumed bang-bang (Marlin's default), at full power
 * until it gets there. The readings in the braking band correct either (see `tracker.ts`).
 */
export function slowdownOf(heater: string): number {
  return /^tool\d+$/.test(heater) ? TOOL_SLOWDOWN : FULL_POWER_SLOWDOWN;
}
export const TOOL_SLOWDOWN = 2.5;
export const FULL_POWER_SLOWDOWN = 0;

/** Whether a heating heater is inside the braking band before its target. */
export function inBrakingBand(i: ApproachInput): boolean {
  return i.heating && i.x >= i.target - bandOf(i);
}

/** Seconds along `rate = k·(a − x)` from `from` to `to` (Infinity when `to` is not below `a`). */
function travel(from: number, to: number, a: number, k: number): number {
  if (to <= from) return 0;
  if (to >= a) return Infinity;
  return Math.log((a - from) / (a - to)) / k;
}

/**
 * Seconds until `goal` for one candidate: along the first-order curve, and for heating with the
 * braking band before the target.
 */
export function etaAlong(
  x: number,
  asymptote: number,
  k: number,
  i: Pick<ApproachInput, "target" | "goal" | "heating" | "slowdown">,
): number {
  if (!(k > 0)) return Infinity;
  if (x >= i.goal) return 0;
  if (!i.heating) return travel(x, i.goal, asymptote, k);
  const threshold = i.target - i.goal;
  const band = bandOf(i);
  const edge = i.target - band;
  const braking = (gap: number, rate: number) => (gap / rate) * Math.log(gap / threshold);
  const slowdown = asymptote > i.target + 0.5 ? i.slowdown ?? BRAKING_SLOWDOWN : 1;
  // A controller expected at full power until the target: no braking band.
  if (slowdown === 0) return travel(x, i.goal, asymptote, k);
  if (x < edge) {
    return travel(x, edge, asymptote, k) + slowdown * braking(band, k * (asymptote - edge));
  }
  return slowdown * braking(i.target - x, k * (asymptote - x));
}

/**
 * The ETA in seconds (weighted median over the candidates), or null when the profile is empty
 * or most of the weight says "never".
 */
export function approachEta(
  profile: RateProfile,
  input: ApproachInput,
  current?: CurrentFit,
): number | null {
  return approachRange(profile, input, current)?.eta ?? null;
}

/** The weighted median ETA and the weighted quartiles around it (how sure the model is). */
export interface EtaRange {
  eta: number;
  low: number;
  high: number;
}

/**
 * {@linkcode approachEta} with the weighted quartiles of the candidates' ETAs: far apart while
 * the profile cannot yet tell the asymptotes apart (the prior speaks), close once it can.
 */
export function approachRange(
  profile: RateProfile,
  input: ApproachInput,
  current?: CurrentFit,
): EtaRange | null {
  const sigma2 = Math.max(profile.variance, 1e-12);
  const scored: Array<{ eta: number; logWeight: number }> = [];
  for (const c of candidates(input)) {
    const fit = profile.fitThrough(c.asymptote);
    if (!fit) continue;
    const own = current?.(c.asymptote) ?? null;
    const eta = own
      ? etaAlong(own.x, c.asymptote, fit.k, input)
      : etaAlong(input.x, c.asymptote, fit.k, input);
    scored.push({ eta, logWeight: Math.log(c.prior) - fit.sse / (2 * sigma2) });
  }
  if (scored.length === 0) return null;
  const top = Math.max(...scored.map((s) => s.logWeight));
  const weighted = scored.map((s) => ({ eta: s.eta, w: Math.exp(s.logWeight - top) }))
    .sort((a, b) => a.eta - b.eta);
  const total = weighted.reduce((sum, s) => sum + s.w, 0);
  const at = (share: number) => {
    let seen = 0;
    for (const s of weighted) {
      seen += s.w;
      if (seen >= share * total) return s.eta;
    }
    return Infinity;
  };
  const eta = at(0.5);
  return Number.isFinite(eta) ? { eta, low: at(0.25), high: at(0.75) } : null;
}
