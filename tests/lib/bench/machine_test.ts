import assert from "node:assert/strict";
import {
  captureMachine,
  machineSummary,
  osReleaseName,
  parseNvidiaIdentity,
  type SystemFacts,
} from "../../../lib/bench/machine.ts";
import { denoIdFile, idFromSystem } from "../../../lib/bench/machine_id.ts";
import { tempEnv } from "../../_helpers.ts";
import { fakeRunner, memFiles } from "./_profiler_fakes.ts";

const SYSTEM_ID = "0123456789abcdef0123456789abcdef";

const facts: SystemFacts = {
  hostname: () => "gpu-box",
  os: "linux",
  arch: "x86_64",
  release: () => "6.12.38+deb13-amd64",
  cpuModels: () => Array(16).fill("AMD Ryzen 9 7950X 16-Core Processor  "),
  totalMemoryBytes: () => 64 * 1024 ** 3,
};

const OS_RELEASE =
  'NAME="Debian GNU/Linux"\nPRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\n';

function amdCard(card: string): Record<string, string> {
  const d = `/sys/class/drm/${card}/device`;
  return {
    [`${d}/vendor`]: "0x1002\n",
    [`${d}/device`]: "0x744c\n",
    [`${d}/product_name`]: "AMD Radeon RX 7900 XTX\n",
    [`${d}/mem_info_vram_total`]: String(24 * 1024 ** 3),
  };
}

Deno.test("an NVIDIA machine is captured with its GPUs, driver, CPU, memory, OS and server", async () => {
  await using t = await tempEnv();
  const runner = fakeRunner({
    "nvidia-smi": (args) => {
      assert.deepEqual(args, ["--query-gpu=name,driver_version", "--format=csv,noheader"]);
      return "NVIDIA GeForce RTX 4090, 550.54.14\nNVIDIA GeForce RTX 3090, 550.54.14\n";
    },
  });
  const m = await captureMachine({
    dataDir: t.dataDir,
    files: memFiles({ "/etc/machine-id": `${SYSTEM_ID}\n`, "/etc/os-release": OS_RELEASE }),
    runner,
    idFile: denoIdFile,
    system: facts,
  }, { describe: "llama.cpp at http://127.0.0.1:8080", version: "b6123" });
  assert.deepEqual(m, {
    id: idFromSystem(SYSTEM_ID),
    hostname: "gpu-box",
    os: "Debian GNU/Linux 13 (trixie), Linux 6.12.38+deb13-amd64",
    arch: "x86_64",
    cpu_model: "AMD Ryzen 9 7950X 16-Core Processor",
    cpu_cores: 16,
    ram_gb: 64,
    gpus: [
      { name: "NVIDIA GeForce RTX 4090", driver: "nvidia 550.54.14" },
      { name: "NVIDIA GeForce RTX 3090", driver: "nvidia 550.54.14" },
    ],
    model_server: "llama.cpp at http://127.0.0.1:8080",
    model_server_version: "b6123",
  });
  assert.match(m.id, /^[0-9a-f]{16}$/);
  assert.ok(!m.id.includes(SYSTEM_ID.slice(0, 16)), "the system's own id is not stored");
  assert.equal(
    machineSummary(m),
    "gpu-box (NVIDIA GeForce RTX 4090 + NVIDIA GeForce RTX 3090, AMD Ryzen 9 7950X 16-Core Processor)",
  );
  // Nothing was written to the data folder: the system's id is the machine's.
  await assert.rejects(() => Deno.stat(`${t.dataDir}/machine-id`), Deno.errors.NotFound);
});

Deno.test("an AMD card in sysfs is captured with the amdgpu module's version", async () => {
  await using t = await tempEnv();
  const m = await captureMachine({
    dataDir: t.dataDir,
    files: memFiles({
      "/etc/machine-id": SYSTEM_ID,
      ...amdCard("card1"),
      "/sys/module/amdgpu/version": "6.10.5\n",
    }),
    runner: fakeRunner({}),
    idFile: denoIdFile,
    system: facts,
  });
  assert.deepEqual(m.gpus, [{ name: "AMD Radeon RX 7900 XTX", driver: "amdgpu 6.10.5" }]);
  assert.equal(m.os, "Linux 6.12.38+deb13-amd64", "no os-release: the kernel alone");
  assert.equal(m.model_server, null);
});

Deno.test("a machine whose facts cannot be read is still captured, with nulls and no GPU", async () => {
  await using t = await tempEnv();
  const broken: SystemFacts = {
    hostname: () => {
      throw new Deno.errors.NotCapable("no --allow-sys");
    },
    os: "darwin",
    arch: "aarch64",
    release: () => {
      throw new Error("denied");
    },
    cpuModels: () => [],
    totalMemoryBytes: () => 0,
  };
  const m = await captureMachine({
    dataDir: t.dataDir,
    files: memFiles({}),
    runner: fakeRunner({
      "nvidia-smi": () => ({ code: 9, stdout: "", stderr: "x", timedOut: false }),
    }),
    idFile: denoIdFile,
    system: broken,
  });
  assert.deepEqual(
    [m.hostname, m.os, m.cpu_model, m.cpu_cores, m.ram_gb, m.gpus],
    ["unnamed", "macOS", null, null, null, []],
  );
  assert.match(m.id, /^[0-9a-f]{16}$/, "a generated id, kept in the data folder");
  assert.equal((await Deno.readTextFile(`${t.dataDir}/machine-id`)).trim(), m.id);
});

Deno.test("nvidia-smi's lines and os-release's name are parsed, unknown drivers left null", () => {
  assert.deepEqual(parseNvidiaIdentity("Tesla T4, [N/A]\n\nA100, 535.1\n"), [
    { name: "Tesla T4", driver: null },
    { name: "A100", driver: "nvidia 535.1" },
  ]);
  assert.equal(osReleaseName("PRETTY_NAME=Arch Linux\n"), "Arch Linux");
  assert.equal(osReleaseName('NAME="x"\n'), null);
  assert.equal(osReleaseName(null), null);
});
