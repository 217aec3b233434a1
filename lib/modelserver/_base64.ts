/**
 * Base64 encoding without @std (not installable here).
 *
 * @module
 */

/** Encodes bytes as standard base64. */
export function encodeBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}
