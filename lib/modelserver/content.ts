/**
 * Builders for the REST v1 chat `input` (text and images) and for MCP `integrations`: the
 * vision and tool-use helpers.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { ChatMessage } from "./backend.ts";

/** One item of the REST `input` array. */
export type RestInputItem =
  | { type: "message"; content: string }
  | { type: "image"; data_url: string };

/** An ephemeral MCP server given to a chat (`integrations`). */
export interface EphemeralMcp {
  type: "ephemeral_mcp";
  server_label: string;
  server_url: string;
  allowed_tools?: string[];
}

/** The REST `system_prompt` and `input` of a message list. */
export interface RestInput {
  system_prompt: string | undefined;
  input: string | RestInputItem[];
}

/**
 * Builds the REST `input`: system messages become `system_prompt`, the other contents are joined
 * by a blank line; with images the input is an item array (text first, then each image).
 */
export function toRestInput(messages: ChatMessage[], images: string[] = []): RestInput {
  const system = messages.filter((m) => m.role === "system").map((m) => m.content);
  const text = messages.filter((m) => m.role !== "system").map((m) => m.content).join("\n\n");
  const input: string | RestInputItem[] = images.length === 0 ? text : [
    { type: "message", content: text },
    ...images.map((data_url) => ({ type: "image" as const, data_url })),
  ];
  return { system_prompt: system.length > 0 ? system.join("\n\n") : undefined, input };
}

/**
 * A `data:` URL for image bytes, for vision models.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { imageDataUrl } from "./content.ts";
 * assert.equal(imageDataUrl(new Uint8Array([1, 2]), "image/png"), "data:image/png;base64,AQI=");
 * ```
 */
export function imageDataUrl(bytes: Uint8Array, mime = "image/png"): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`;
}

/** An `ephemeral_mcp` integration item, for tool-use models. */
export function ephemeralMcp(
  serverLabel: string,
  serverUrl: string,
  allowedTools?: string[],
): EphemeralMcp {
  const item: EphemeralMcp = {
    type: "ephemeral_mcp",
    server_label: serverLabel,
    server_url: serverUrl,
  };
  if (allowedTools !== undefined) item.allowed_tools = allowedTools;
  return item;
}
