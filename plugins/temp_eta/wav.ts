/**
 * A tiny PCM WAV encoder and tone synthesiser used to generate the plugin's notification sounds
 * (no downloaded assets). Pure functions: the same input always gives the same bytes.
 *
 * @module
 */

/** One tone of a sound: frequency in Hz and duration in seconds (frequency 0 is silence). */
export interface Tone {
  frequency: number;
  seconds: number;
}

/**
 * Renders tones one after the other as samples in [-1, 1], each with a 10 ms fade in and out
 * so that the tones do not click.
 */
export function synthesise(tones: readonly Tone[], sampleRate: number, volume = 0.5): Float32Array {
  const total = tones.reduce((n, tone) => n + Math.round(tone.seconds * sampleRate), 0);
  const out = new Float32Array(total);
  const fade = Math.round(0.01 * sampleRate);
  let offset = 0;
  for (const tone of tones) {
    const n = Math.round(tone.seconds * sampleRate);
    for (let i = 0; i < n; i++) {
      const envelope = Math.min(1, i / fade, (n - 1 - i) / fade);
      const phase = (2 * Math.PI * tone.frequency * i) / sampleRate;
      out[offset + i] = tone.frequency > 0 ? volume * envelope * Math.sin(phase) : 0;
    }
    offset += n;
  }
  return out;
}

/**
 * Encodes mono samples in [-1, 1] as a 16-bit PCM RIFF/WAVE file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeWav } from "./wav.ts";
 * const bytes = encodeWav(new Float32Array(10), 8000);
 * assert.equal(new TextDecoder().decode(bytes.subarray(0, 4)), "RIFF");
 * ```
 */
export function encodeWav(samples: Float32Array, sampleRate: number): Uint8Array {
  const dataBytes = samples.length * 2;
  const bytes = new Uint8Array(44 + dataBytes);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
  };
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
    view.setInt16(44 + i * 2, Math.round(s * 32767), true);
  }
  return bytes;
}
