/** Machines for the store's tests. */
import type { MachineRecord } from "../../../lib/store/mod.ts";

/** A machine with an id and host name, and a GPU named after the host. */
export function machineRecord(id: string, hostname: string): MachineRecord {
  return {
    id,
    hostname,
    os: "Debian GNU/Linux 13 (trixie), Linux 6.12.0",
    arch: "x86_64",
    cpu_model: "AMD Ryzen 9 7950X",
    cpu_cores: 32,
    ram_gb: 62.5,
    gpus: [{ name: `GPU of ${hostname}`, driver: "nvidia 550.54" }],
    model_server: "llama.cpp at http://127.0.0.1:8080",
    model_server_version: "b6000",
  };
}
