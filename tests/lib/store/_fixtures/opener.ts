/**
 * An opener process for db_test.ts: waits until the given time, then opens (and so creates and
 * migrates) the store at the path, and prints its schema version.
 */
import { openDatabase, userVersion } from "../../../../lib/store/db.ts";

const [path, at] = Deno.args;
await new Promise((r) => setTimeout(r, Math.max(0, Number(at) - Date.now())));
const db = openDatabase(path!);
await Deno.stdout.write(new TextEncoder().encode(`${userVersion(db)}\n`));
db.close();
