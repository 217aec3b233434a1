/**
 * Reading one record of another tool's output: typed field access that names what is wrong, and
 * the record's content hash.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { badRequest, type UsageError } from "../../error.ts";
import { canonical } from "../../store/mod.ts";

/** A JSON object read from a file. */
export type JsonRecord = Record<string, unknown>;

/** Where a record is in its file, for messages: `record 2` or `line 2`. */
export type RecordPlace = string;

/** An import failure: one line naming the file, the record and what is wrong (exit code 2). */
export function importError(file: string, place: RecordPlace | null, what: string): UsageError {
  return badRequest(`Cannot import ${file}: ${place ? `${place}: ` : ""}${what}`, "bad_import");
}

/** Field access of one record; every accessor throws a {@linkcode importError} on a bad value. */
export class RecordReader {
  constructor(
    readonly record: JsonRecord,
    readonly file: string,
    readonly place: RecordPlace,
  ) {}

  fail(what: string): UsageError {
    return importError(this.file, this.place, what);
  }

  /** A number (a finite one) that must be there. */
  number(key: string): number {
    const v = this.record[key];
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw this.fail(`'${key}' is ${v === undefined ? "missing" : "not a number"}`);
    }
    return v;
  }

  /** A whole number ≥ 0 that must be there, or `fallback` when missing. */
  count(key: string, fallback?: number): number {
    if (this.record[key] === undefined && fallback !== undefined) return fallback;
    const v = this.number(key);
    if (!Number.isInteger(v) || v < 0) throw this.fail(`'${key}' is not a whole number ≥ 0`);
    return v;
  }

  /** A number, or null when missing or null. */
  optionalNumber(key: string): number | null {
    const v = this.record[key];
    return v === undefined || v === null ? null : this.number(key);
  }

  /** A non-empty string that must be there. */
  string(key: string): string {
    const v = this.record[key];
    if (typeof v !== "string" || v.trim() === "") {
      throw this.fail(`'${key}' is ${v === undefined ? "missing" : "not a non-empty string"}`);
    }
    return v;
  }

  /** A string, or null when missing. */
  optionalString(key: string): string | null {
    const v = this.record[key];
    return v === undefined || v === null ? null : typeof v === "string" ? v : String(v);
  }

  /** A list of numbers, or null when missing. */
  numbers(key: string): number[] | null {
    const v = this.record[key];
    if (v === undefined || v === null) return null;
    if (!Array.isArray(v) || v.some((x) => typeof x !== "number" || !Number.isFinite(x))) {
      throw this.fail(`'${key}' is not a list of numbers`);
    }
    return v as number[];
  }
}

/** The content hash of a record: SHA-256 of its canonical JSON with the tool's name. */
export function recordHash(tool: string, record: JsonRecord): string {
  return createHash("sha256").update(`${tool}\n${canonical(record)}`).digest("hex");
}
