/**
 * The POST commands of the branch controller: body parsing, validation (unknown command, channel
 * or mode → `UsageError` with a message and a code), the per-account limit of switch commands and
 * dispatch to the controller. Failures the caller can act on come back as
 * `{ok: false, reason, detail}`; thrown ones are answered in the same shape by `./api.ts`.
 *
 * @module
 */
import { UsageError } from "../../lib/error.ts";
import {
  cleanLabel,
  invalid,
  parseFailsafe,
  parseMode,
  parseRules,
  parseTempRule,
} from "./channel_config.ts";
import type { BranchController } from "./controller.ts";
import { requireSlot } from "./layout.ts";
import { isPlainObject } from "../../lib/shared/json_object.ts";

/** The command names `POST /api/plugin/<id>` accepts. */
export const COMMANDS = [
  "set_channel",
  "set_mode",
  "set_label",
  "set_channel_config",
  "test_connection",
] as const;

/** A command's JSON result. */
export type CommandResult = Record<string, unknown>;

/** Who sent a command. */
export interface CommandCaller {
  /**
   * Admits one switch command (`set_channel`) of the caller, after its body was validated.
   *
   * @throws {RateLimitedError} when the caller switched too often.
   */
  admitSwitch(): void;
}

/**
 * Runs one command body `{command, ...}`.
 *
 * @throws {UsageError} for an unknown command, channel or mode, or an invalid field;
 * {RateLimitedError} for a switch over the caller's limit.
 */
export async function runCommand(
  controller: BranchController,
  body: unknown,
  caller?: CommandCaller,
): Promise<CommandResult> {
  if (!isPlainObject(body)) throw new UsageError("Invalid command: the body must be a JSON object");
  const { command } = body;
  switch (command) {
    case "set_channel": {
      const slot = requireSlot(body.kind, body.id);
      if (body.confirm !== undefined && typeof body.confirm !== "boolean") {
        throw invalid("confirm", "must be true or false");
      }
      const on = parseOn(body.on);
      caller?.admitSwitch();
      return { ...await controller.setChannel(slot.kind, slot.id, on, body.confirm === true) };
    }
    case "set_mode": {
      const slot = requireSlot(body.kind, body.id);
      const mode = parseMode(body.mode);
      const config = await controller.updateChannel(slot.kind, slot.id, (c) => ({ ...c, mode }));
      return { ok: true, mode: config.mode };
    }
    case "set_label": {
      const slot = requireSlot(body.kind, body.id);
      const label = cleanLabel(body.label);
      const config = await controller.updateChannel(slot.kind, slot.id, (c) => ({ ...c, label }));
      return { ok: true, label: config.label };
    }
    case "set_channel_config": {
      const slot = requireSlot(body.kind, body.id);
      if (!("rules" in body) && !("temp_rule" in body) && !("failsafe" in body)) {
        throw new UsageError("Invalid command: no valid fields (rules, temp_rule, failsafe)");
      }
      const config = await controller.updateChannel(slot.kind, slot.id, (c) => ({
        ...c,
        rules: "rules" in body ? parseRules(body.rules, c.rules) : c.rules,
        temp_rule: "temp_rule" in body ? parseTempRule(body.temp_rule, c.temp_rule) : c.temp_rule,
        failsafe: "failsafe" in body ? parseFailsafe(body.failsafe) : c.failsafe,
      }));
      return { ok: true, config };
    }
    case "test_connection":
      return { ...await controller.testConnection(parseTarget(body)) };
    default:
      throw new UsageError(
        `Unknown command '${String(command)}': expected one of ${COMMANDS.join(", ")}`,
        { code: "unknown_command" },
      );
  }
}

function parseOn(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1) return value === 1;
  throw invalid("on", "must be true or false");
}

function parseTarget(
  body: Record<string, unknown>,
): { host?: string; port?: number; path?: string } {
  const target: { host?: string; port?: number; path?: string } = {};
  if (body.host !== undefined && body.host !== null) {
    if (typeof body.host !== "string") throw invalid("host", "must be a string");
    target.host = body.host;
  }
  if (body.port !== undefined && body.port !== null && body.port !== "") {
    const port = typeof body.port === "string" ? Number(body.port) : body.port;
    if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw invalid("port", "must be a whole number between 1 and 65535");
    }
    target.port = port;
  }
  if (body.path !== undefined && body.path !== null && body.path !== "") {
    if (typeof body.path !== "string" || !body.path.startsWith("/")) {
      throw invalid("path", "must start with '/'");
    }
    target.path = body.path;
  }
  return target;
}
