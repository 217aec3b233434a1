/**
 * The stable id of the machine a benchmark runs on. On Linux it is derived from
 * `/etc/machine-id` (or `/var/lib/dbus/machine-id`), never stored as is: the id is the first 16
 * hex digits of SHA-256 over a localbench key and that value, as systemd asks of programs that
 * show the id ("application-specific"), so the machine's own id does not leave it in a report.
 * Elsewhere (or without one) it is a random id generated once and kept in the data folder as
 * `machine-id`, created atomically: a temporary file hard-linked to its name, so two processes
 * starting at once agree on one id and a crash never leaves half a file.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { StorageError } from "../error.ts";
import type { HostFiles } from "./profiler_host.ts";

/** The system files that hold the machine's id (systemd, then D-Bus). */
export const SYSTEM_ID_FILES = ["/etc/machine-id", "/var/lib/dbus/machine-id"];

/** The file of the data folder that keeps a generated id. */
export const ID_FILE = "machine-id";

const SYSTEM_ID = /^[0-9a-f]{32}$/;
const OWN_ID = /^[0-9a-f]{16}$/;

/** Creating the kept id: the file of a path, once. */
export interface IdFile {
  /** The file's text, or null when it is missing. */
  read(path: string): Promise<string | null>;
  /** Creates the file with `text` unless it exists (atomically); false when it existed. */
  createOnce(path: string, text: string): Promise<boolean>;
}

/** The real file system: a temporary file, hard-linked to the name (fails when it exists). */
export const denoIdFile: IdFile = {
  async read(path) {
    try {
      return await Deno.readTextFile(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return null;
      throw err;
    }
  },
  async createOnce(path, text) {
    await Deno.mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
    try {
      await Deno.writeTextFile(tmp, text);
      await Deno.link(tmp, path);
      return true;
    } catch (err) {
      if (err instanceof Deno.errors.AlreadyExists) return false;
      throw err;
    } finally {
      await Deno.remove(tmp).catch(() => {});
    }
  },
};

/** What {@linkcode machineId} reads and writes. */
export interface MachineIdDeps {
  /** The system's files (`/etc/machine-id`). */
  files: HostFiles;
  /** The data folder's id file. */
  idFile: IdFile;
  /** 8 random bytes as 16 hex digits. @default crypto.getRandomValues */
  random?: () => string;
}

/** The id made from a system machine id (32 hex digits): 16 hex digits of a keyed SHA-256. */
export function idFromSystem(systemId: string): string {
  return createHash("sha256").update(`localbench machine\u0000${systemId}`).digest("hex")
    .slice(0, 16);
}

function randomHex(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function systemId(files: HostFiles): Promise<string | null> {
  for (const path of SYSTEM_ID_FILES) {
    const text = (await files.readText(path).catch(() => null))?.trim().toLowerCase();
    if (text && SYSTEM_ID.test(text)) return text;
  }
  return null;
}

/**
 * The machine's id: from the system's machine id where there is one, else the one kept in
 * `dataDir` (generated and kept the first time). A kept file that is not an id is an error, not
 * replaced: results already name it.
 */
export async function machineId(dataDir: string, deps: MachineIdDeps): Promise<string> {
  const system = await systemId(deps.files);
  if (system !== null) return idFromSystem(system);
  const path = join(dataDir, ID_FILE);
  const read = async () => {
    const text = await deps.idFile.read(path);
    if (text === null) return null;
    const id = text.trim();
    if (!OWN_ID.test(id)) {
      throw new StorageError(
        `${path} does not hold a machine id (16 hex digits): restore it, or delete it to make ` +
          "this machine a new one",
        { code: "machine_id_invalid" },
      );
    }
    return id;
  };
  const kept = await read();
  if (kept !== null) return kept;
  const fresh = (deps.random ?? randomHex)();
  if (await deps.idFile.createOnce(path, `${fresh}\n`)) return fresh;
  // Another process created it first: its id is the machine's.
  return (await read()) ?? fresh;
}
