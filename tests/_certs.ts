/**
 * Test certificates made with openssl: a one-day CA and a server certificate for 127.0.0.1 and
 * localhost signed by it (ca.crt, server.crt, server.key in `dir`).
 *
 * @module
 */
import { join } from "node:path";

async function run(args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command("openssl", { args, cwd, stdout: "null", stderr: "piped" })
    .output();
  if (!out.success) throw new Error(`openssl failed: ${new TextDecoder().decode(out.stderr)}`);
}

/** The files written by {@linkcode makeCerts}. */
export interface TestCerts {
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** Writes a CA and a server certificate for 127.0.0.1 and localhost into `dir`. */
// deno-fmt-ignore
export async function makeCerts(dir: string): Promise<TestCerts> {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await run(["req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "1", "-subj", "/CN=localbench test CA"], dir);
  await run(["req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"], dir);
  await Deno.writeTextFile(join(dir, "san.cnf"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  await run(["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.crt", "-days", "1", "-extfile", "san.cnf"], dir);
  return {
    caFile: join(dir, "ca.crt"),
    certFile: join(dir, "server.crt"),
    keyFile: join(dir, "server.key"),
  };
}
