/**
 * OctoPrint's connection API: `GET /api/connection` (STATUS) answers the state (OctoPrint's text,
 * and its id as `stateId`), the port and baud rate in use and the choices;
 * `POST /api/connection` (CONNECTION) `connect` (port and baud rate, else the stored preferences;
 * `save` stores them, `autoconnect` too), `disconnect` and `fake_ack`. A failed connect answers its error (a missing port 404, no permission 403, a port
 * another program holds 409, silence 504) and leaves the reason on the connection.
 *
 * @module
 */
import { Hono } from "hono";
import { UsageError } from "../../error.ts";
import { readJsonObject } from "../../http/mod.ts";
import {
  CONNECTION_SECTION,
  type ConnectionSettings,
  connectionSettingsOf,
} from "../../printer/connection_settings.ts";
import { PrinterTimeoutError } from "../../printer/marlin/mod.ts";
import type { ConnectionStatus, Printer } from "../../printer/printer.ts";
import { stateText } from "./state_text.ts";
import { BAUD_RATES } from "../../printer/serial/mod.ts";
import type { ConnectionCurrent, ConnectionInfo } from "../../shared/printer_connection.ts";
import { requirePermission } from "../auth/mod.ts";
import type { ConfigFile } from "../config_file.ts";

/** The one printer profile (profiles are a later step). */
const PROFILE = { id: "_default", name: "Default" };

/** Baud rates tried, in order, when a connect names none and none is stored. */
const USUAL_BAUD_RATES = [115200, 250000];

/** The connection as `GET /api/connection`'s `current` (and the push socket) show it. */
export function connectionCurrent(status: ConnectionStatus): ConnectionCurrent {
  return {
    state: stateText(status),
    stateId: status.state,
    port: status.port,
    baudrate: status.baudrate,
    printerProfile: PROFILE.id,
    error: status.error,
    firmware: status.firmware,
  };
}

/** The body of `GET /api/connection`: the connection, the choices and stored preferences. */
export async function connectionInfo(
  printer: Printer,
  config: ConfigFile,
): Promise<ConnectionInfo> {
  const prefs = connectionSettingsOf(await config.read());
  return {
    current: connectionCurrent(printer.connection()),
    options: {
      ports: await printer.ports(),
      baudrates: BAUD_RATES,
      printerProfiles: [PROFILE],
      portPreference: prefs.port,
      baudratePreference: prefs.baudrate,
      printerProfilePreference: PROFILE.id,
      autoconnect: prefs.autoconnect,
    },
  };
}

/** The connection sub-app (mount at `/api`). */
export function connectionRoutes(printer: Printer, config: ConfigFile): Hono {
  const app = new Hono();
  const settings = async () => connectionSettingsOf(await config.read());
  app.get(
    "/connection",
    requirePermission("STATUS"),
    async (c) => c.json(await connectionInfo(printer, config)),
  );
  app.post("/connection", requirePermission("CONNECTION"), async (c) => {
    const body = await readJsonObject(c);
    switch (body.command) {
      case "connect":
        await connect(printer, config, body, await settings());
        break;
      case "disconnect":
        await printer.disconnect();
        break;
      case "fake_ack":
        await printer.fakeAck();
        break;
      default:
        throw new UsageError(
          `Unknown command '${String(body.command)}': use connect, disconnect or fake_ack`,
        );
    }
    return c.body(null, 204);
  });
  return app;
}

async function connect(
  printer: Printer,
  config: ConfigFile,
  body: Record<string, unknown>,
  prefs: ConnectionSettings,
): Promise<void> {
  for (const key of ["save", "autoconnect"]) {
    if (body[key] !== undefined && typeof body[key] !== "boolean") {
      throw new UsageError(`'${key}' must be true or false`);
    }
  }
  if (body.port !== undefined && (typeof body.port !== "string" || body.port.trim() === "")) {
    throw new UsageError("'port' must be a port path or VIRTUAL");
  }
  if (body.baudrate !== undefined && !BAUD_RATES.includes(body.baudrate as number)) {
    throw new UsageError(`'baudrate' must be one of ${BAUD_RATES.join(", ")}`, {
      code: "invalid_baud_rate",
    });
  }
  const port = (body.port as string | undefined)?.trim() ?? prefs.port ?? await onlyPort(printer);
  const given = (body.baudrate as number | undefined) ?? prefs.baudrate;
  const rates = given === null ? USUAL_BAUD_RATES : [given];
  for (const [i, baudrate] of rates.entries()) {
    try {
      await printer.connect({ port, baudrate });
      break;
    } catch (err) {
      // Silence at one usual rate: try the next (a wrong rate reads as garbage or nothing).
      if (i === rates.length - 1 || !(err instanceof PrinterTimeoutError)) throw err;
    }
  }
  if (body.save === true || typeof body.autoconnect === "boolean") {
    await config.update((doc) => {
      const section = { ...connectionSettingsOf(doc) };
      if (body.save === true) {
        Object.assign(section, { port, baudrate: printer.connection().baudrate });
      }
      if (typeof body.autoconnect === "boolean") section.autoconnect = body.autoconnect;
      doc[CONNECTION_SECTION] = section;
    });
  }
}

/** The one serial port found, when a connect names none and none is stored. */
async function onlyPort(printer: Printer): Promise<string> {
  const serial = (await printer.ports()).filter((p) => p !== "VIRTUAL");
  if (serial.length === 1) return serial[0]!;
  throw new UsageError(
    serial.length === 0
      ? "Cannot connect: no serial port found; name one (or VIRTUAL)"
      : `Cannot connect: name a port (found ${serial.join(", ")})`,
  );
}
