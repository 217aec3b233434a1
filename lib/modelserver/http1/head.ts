/**
 * HTTP/1.1 message heads: the request head a client writes, the response head it reads, and
 * what the response head says about its body (framing) and its connection (reuse).
 *
 * @module
 */
import { type ByteReader, HttpProtocolError } from "./reader.ts";

/** Longest response head accepted (status line and fields). */
export const MAX_HEAD_BYTES = 64 * 1024;
const MAX_FIELDS = 200;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A parsed response head. */
export interface ResponseHead {
  /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
  minor: number;
  status: number;
  statusText: string;
  headers: Headers;
}

/** Header fields as `fetch` takes them, or a plain list of pairs. */
export type FieldsInit = Headers | Record<string, string> | [string, string][];

/** The pairs of a {@linkcode FieldsInit}, without building a `Headers` for a plain object. */
function pairs(fields: FieldsInit): Iterable<[string, string]> {
  if (fields instanceof Headers || Array.isArray(fields)) return fields;
  return Object.entries(fields);
}

/** Fields the client writes itself. */
const OWN = new Set(["host", "content-length", "transfer-encoding"]);

/**
 * The request head: request line, `Host`, the caller's fields, and `Content-Length` when there
 * is a body (or the method usually has one).
 *
 * @throws {TypeError} for a method or field name that is not a token, or a value that could
 * split the head (CR, LF, NUL)
 */
export function requestHead(
  method: string,
  url: URL,
  fields: FieldsInit,
  bodyLength: number | null,
): string {
  if (!TOKEN.test(method)) throw new TypeError(`Invalid HTTP method '${method}'`);
  let head = `${method} ${url.pathname || "/"}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  let agent = false;
  for (const [name, value] of pairs(fields)) {
    if (!TOKEN.test(name)) throw new TypeError(`Invalid header name '${name}'`);
    const lower = name.toLowerCase();
    if (OWN.has(lower)) continue;
    if (/[\r\n\0]/.test(value)) throw new TypeError(`Invalid value of header '${name}'`);
    if (lower === "user-agent") agent = true;
    head += `${name}: ${value}\r\n`;
  }
  if (!agent) head += "user-agent: localbench\r\n";
  if (bodyLength !== null) head += `content-length: ${bodyLength}\r\n`;
  return `${head}\r\n`;
}

/**
 * Reads a response head; interim (1xx) responses are skipped.
 *
 * @returns null when the connection ended before the first byte of a head
 * @throws {HttpProtocolError} for a head that is not HTTP/1.x, too long or cut off
 */
export async function readResponseHead(reader: ByteReader): Promise<ResponseHead | null> {
  for (;;) {
    const head = await readOneHead(reader);
    if (head === null || head.status >= 200 || head.status === 101) return head;
  }
}

async function readOneHead(reader: ByteReader): Promise<ResponseHead | null> {
  const lines: string[] = [];
  let size = 0;
  for (;;) {
    const line = reader.line(MAX_HEAD_BYTES - size);
    if (line === null) {
      if (await reader.fill()) continue;
      if (lines.length === 0 && reader.buffered === 0) return null;
      throw new HttpProtocolError("the connection closed inside the response head");
    }
    size += line.length + 2;
    if (line === "") {
      if (lines.length === 0) continue; // a stray empty line before the status line
      return parseHead(lines);
    }
    if (lines.length > MAX_FIELDS) throw new HttpProtocolError("too many header fields");
    lines.push(line);
  }
}

function parseHead(lines: string[]): ResponseHead {
  const m = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: (.*))?$/.exec(lines[0]!);
  if (!m) {
    throw new HttpProtocolError(`not an HTTP/1.x status line: '${lines[0]!.slice(0, 60)}'`);
  }
  const headers = new Headers();
  let last: string | null = null;
  for (const line of lines.slice(1)) {
    if (/^[ \t]/.test(line) && last !== null) {
      // obs-fold: the value goes on on this line, as one space (RFC 9112, 5.2).
      const value = `${headers.get(last) ?? ""} ${line.trim()}`;
      headers.set(last, value);
      continue;
    }
    const colon = line.indexOf(":");
    const name = colon < 0 ? "" : line.slice(0, colon);
    if (!TOKEN.test(name)) {
      throw new HttpProtocolError(`a malformed header line: '${line.slice(0, 60)}'`);
    }
    try {
      headers.append(name, line.slice(colon + 1).trim());
    } catch {
      throw new HttpProtocolError(`a malformed value of header '${name}'`);
    }
    last = name;
  }
  return { minor: Number(m[1]), status: Number(m[2]), statusText: m[3] ?? "", headers };
}

/** How a response body is delimited. */
export type Framing =
  | { kind: "none" }
  | { kind: "length"; length: number }
  | { kind: "chunked" }
  | { kind: "close" };

/**
 * The framing of a response's body (RFC 9112, 6.3).
 *
 * @throws {HttpProtocolError} for an invalid or ambiguous `Content-Length`
 */
export function framingOf(head: ResponseHead, method: string): Framing {
  const { status, headers } = head;
  if (method === "HEAD" || status === 204 || status === 304 || status < 200) {
    return { kind: "none" };
  }
  const te = headers.get("transfer-encoding");
  if (te !== null) {
    const last = te.split(",").at(-1)!.trim().toLowerCase();
    return last === "chunked" ? { kind: "chunked" } : { kind: "close" };
  }
  const cl = headers.get("content-length");
  if (cl === null) return { kind: "close" };
  const values = new Set(cl.split(",").map((v) => v.trim()));
  const [value] = values;
  if (values.size !== 1 || !/^\d{1,15}$/.test(value!)) {
    throw new HttpProtocolError(`an invalid Content-Length '${cl.slice(0, 40)}'`);
  }
  return { kind: "length", length: Number(value) };
}

/** Default idle time of a kept connection when the server does not say (`Keep-Alive`). */
export const DEFAULT_KEEP_ALIVE_MS = 4_000;

/**
 * How long the connection may wait idle for the next request, in milliseconds; null when it
 * cannot be reused (the server closes it, HTTP/1.0 without keep-alive, a body delimited by the
 * close, or both `Transfer-Encoding` and `Content-Length`).
 */
export function reuseOf(head: ResponseHead, framing: Framing): number | null {
  const tokens = (head.headers.get("connection") ?? "").toLowerCase().split(",").map((t) =>
    t.trim()
  );
  if (tokens.includes("close") || framing.kind === "close") return null;
  if (head.minor === 0 && !tokens.includes("keep-alive")) return null;
  if (head.headers.has("transfer-encoding") && head.headers.has("content-length")) return null;
  if (head.status === 101) return null;
  const timeout = /(?:^|[,\s])timeout=(\d+)/i.exec(head.headers.get("keep-alive") ?? "");
  if (timeout === null) return DEFAULT_KEEP_ALIVE_MS;
  // A second less than the server's, so the server never closes a connection being reused.
  const ms = Number(timeout[1]) * 1000 - 1000;
  return ms > 0 ? ms : null;
}
