/**
 * Marlin's serial protocol as the host speaks it, over a `PrinterTransport`: {@linkcode
 * MarlinSession} (handshake, numbered lines and resends, `ok` flow control, answers, temperature
 * reports, halts), the pure line parser and the framing it uses.
 *
 * @module
 */
export { MAX_TARGET_C, targetCommand } from "./commands.ts";
export {
  PrinterDisconnectedError,
  PrinterHaltedError,
  PrinterTimeoutError,
  QueueFullError,
} from "./errors.ts";
export { eventOf, type MarlinEvent, type SessionState } from "./events.ts";
export { checksum, cleanCommand, frameLine, stripComment } from "./framing.ts";
export { type DecodedLine, LineDecoder, type LineDecoderOptions } from "./line_decoder.ts";
export { type FirmwareInfo, firmwareInfo, type MarlinLine, parseLine } from "./responses.ts";
export { type Sendable, SendQueue, type SendQueueOptions, type SentLine } from "./send_queue.ts";
export { MarlinSession } from "./session.ts";
export { type MarlinSessionOptions, type SessionTiming, sessionTiming } from "./session_options.ts";
export {
  type HeaterReport,
  isTemperatureReport,
  parseTemperatures,
  type Temperatures,
} from "./temperatures.ts";
