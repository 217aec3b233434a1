/**
 * The stored connection preferences: the `serial` section of the host's config.yaml (as
 * OctoPrint keeps them): `port`, `baudrate`, `autoconnect` and `additional_ports`. With nothing
 * stored the host connects to the virtual printer at start (the demo that works out of the box);
 * a user with a real printer saves its port (`POST /api/connection` with `save: true`).
 *
 * @module
 */
import * as v from "valibot";
import { messageOf, UnprocessableError } from "../error.ts";
import type { Logger } from "../log.ts";
import { isPlainObject } from "../shared/json_object.ts";
import { type Printer, VIRTUAL_PORT } from "./printer.ts";

/** The connection preferences. */
export interface ConnectionSettings {
  /** The port to connect to at start and when a connect names none. */
  port: string | null;
  /** The baud rate likewise; null: try the usual ones. */
  baudrate: number | null;
  /** Connect at start. */
  autoconnect: boolean;
  /** Ports offered besides those found (`/dev/ttyAMA0`, a pseudo-terminal ...). */
  additional_ports: string[];
}

/** What an empty config.yaml means: the virtual printer, connected at start. */
export const DEFAULT_CONNECTION: ConnectionSettings = {
  port: VIRTUAL_PORT,
  baudrate: null,
  autoconnect: true,
  additional_ports: [],
};

const PATH = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(4096));
const SCHEMA = v.strictObject({
  port: v.optional(v.nullable(PATH), DEFAULT_CONNECTION.port),
  baudrate: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))), null),
  autoconnect: v.optional(v.boolean(), DEFAULT_CONNECTION.autoconnect),
  additional_ports: v.optional(v.pipe(v.array(PATH), v.maxLength(64)), []),
});

/** The section's name in config.yaml. */
export const CONNECTION_SECTION = "serial";

/**
 * The preferences of a parsed config.yaml document (defaults for what is missing).
 *
 * @throws {UnprocessableError} naming the value the section holds wrongly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { connectionSettingsOf } from "./connection_settings.ts";
 * assert.equal(connectionSettingsOf({}).port, "VIRTUAL");
 * assert.equal(connectionSettingsOf({ serial: { port: "/dev/ttyACM0" } }).port, "/dev/ttyACM0");
 * ```
 */
export function connectionSettingsOf(doc: Record<string, unknown>): ConnectionSettings {
  const section = doc[CONNECTION_SECTION] ?? {};
  const parsed = v.safeParse(SCHEMA, isPlainObject(section) ? section : undefined);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue.path?.map((p) => String(p.key)).join(".") ?? "";
    throw new UnprocessableError(
      `Cannot read the connection settings (config.yaml '${CONNECTION_SECTION}${
        where ? `.${where}` : ""
      }'): ${issue.message}`,
      { code: "invalid_setting" },
    );
  }
  return parsed.output;
}

/**
 * Connects `printer` as the preferences say at start (nothing when `autoconnect` is off). A
 * serial printer connects in the background: a printer that is off never delays the start, and
 * why it failed stays on the connection; the virtual printer is connected when this resolves.
 */
export async function connectAtStart(
  printer: Printer,
  prefs: ConnectionSettings,
  logger: Logger,
): Promise<void> {
  if (!prefs.autoconnect || prefs.port === null) return;
  const port = prefs.port;
  const connecting = printer.connect({ port, baudrate: prefs.baudrate ?? 115200 })
    .catch((err) => logger.warn(`Cannot connect to the printer on ${port}: ${messageOf(err)}`));
  if (port === VIRTUAL_PORT) await connecting;
}
