import assert from "node:assert/strict";
import { createProfiler } from "../../../lib/bench/profiler.ts";
import { hostFiles } from "../../../lib/bench/profiler_host.ts";
import { fakeProc, fakeRoot, fakeRunner, fakeSensors, ManualClock } from "./_profiler_fakes.ts";

const host = fakeProc;

const nvidiaCsv = ["NVIDIA GeForce RTX 4090, 70, 280.10, 10240"];

function amdTree(card = "card1"): Record<string, string> {
  const d = `/sys/class/drm/${card}/device`;
  return {
    [`${d}/vendor`]: "0x1002\n",
    [`${d}/device`]: "0x744c\n",
    [`${d}/mem_info_vram_total`]: String(24 * 1024 ** 3),
    [`${d}/mem_info_vram_used`]: String(6 * 1024 ** 3),
    [`${d}/mem_info_gtt_used`]: String(2 * 1024 ** 3),
    [`${d}/hwmon/hwmon4/temp1_input`]: "54000\n",
    [`${d}/hwmon/hwmon4/power1_average`]: "212000000\n",
    "/sys/class/drm/card1-DP-1/status": "connected\n",
    "/sys/class/drm/card0/device/vendor": "0x1af4\n",
  };
}

Deno.test("an AMD card is read from a sysfs tree on disk, GTT included", async () => {
  await using root = await fakeRoot({
    ...amdTree(),
  });
  const p = createProfiler({
    files: hostFiles(root.root),
    sensors: fakeSensors({ busy: 10, idle: 90, usedGiB: 2 }),
    runner: fakeRunner({}),
  });
  const s = await p.sample();
  assert.equal(p.gpuName(), "AMD GPU (device 0x744c)");
  assert.deepEqual(
    [s.temp_c, s.power_w, s.gpu_vram_gb, s.gtt_gb, s.ram_gb],
    [54, 212, 6, 2, 2],
  );
  assert.equal((await p.detect())?.tool, "sysfs");
  assert.equal(await p.vramUsedMb(), 6 * 1024);
});

Deno.test("--disable-gtt leaves the GTT series out", async () => {
  const p = createProfiler({
    files: host(amdTree()),
    runner: fakeRunner({}),
    clock: new ManualClock(),
    disable_gtt: true,
  });
  p.start(() => {});
  const summary = await p.stop();
  assert.equal(summary.gtt_gb_max, null);
  assert.equal(summary.gpu_vram_gb_max, 6);
});

const rocmJson = JSON.stringify({
  card0: {
    "Temperature (Sensor edge) (C)": "48.0",
    "Temperature (Sensor junction) (C)": "55.0",
    "Average Graphics Package Power (W)": "95.0",
    "VRAM Total Memory (B)": "25753026560",
    "VRAM Total Used Memory (B)": String(3 * 1024 ** 3),
    "GTT Total Memory (B)": "33554432000",
    "GTT Total Used Memory (B)": String(1024 ** 3),
  },
});

Deno.test("rocm-smi alone gives temperature, power, VRAM, GTT and the product name", async () => {
  const runner = fakeRunner({
    "rocm-smi": (args) =>
      args.includes("--showproductname")
        ? JSON.stringify({ card0: { "Card Series": "Radeon RX 7900 XTX" } })
        : rocmJson,
  });
  const p = createProfiler({ files: host(), runner, clock: new ManualClock() });
  const s = await p.sample();
  assert.equal(p.gpuName(), "Radeon RX 7900 XTX");
  assert.deepEqual([s.temp_c, s.power_w, s.gpu_vram_gb, s.gtt_gb], [48, 95, 3, 1]);
});

Deno.test("rocm-smi fills what the AMD sysfs tree lacks (power here)", async () => {
  const tree = amdTree();
  delete tree["/sys/class/drm/card1/device/hwmon/hwmon4/power1_average"];
  const runner = fakeRunner({ "/opt/rocm/bin/rocm-smi": () => rocmJson });
  const p = createProfiler({ files: host(tree), runner, clock: new ManualClock() });
  const s = await p.sample();
  assert.equal((await p.detect())?.tool, "sysfs+rocm-smi");
  assert.equal(s.power_w, 95, "from rocm-smi");
  assert.equal(s.temp_c, 54, "sysfs wins where it has a value");
  assert.equal(s.gpu_vram_gb, 6);
});

Deno.test("an Intel GPU gets temperature and power from its energy counter", async () => {
  const d = "/sys/class/drm/card0/device";
  const files = host({
    [`${d}/vendor`]: "0x8086",
    [`${d}/device`]: "0x56a0",
    [`${d}/hwmon/hwmon2/temp2_input`]: "47000",
    [`${d}/hwmon/hwmon2/energy1_input`]: "1000000",
  });
  const clock = new ManualClock();
  const p = createProfiler({ files, runner: fakeRunner({}), clock });
  const first = await p.sample();
  assert.equal(first.power_w, null, "one energy reading is not a power yet");
  files.files[`${d}/hwmon/hwmon2/energy1_input`] = "31000000"; // 30 J
  clock.time += 2000; // in 2 s
  const second = await p.sample();
  assert.equal(second.power_w, 15);
  assert.equal(second.temp_c, 47);
  assert.equal(second.gpu_vram_gb, null);
  assert.equal(p.gpuName(), "Intel GPU (device 0x56a0)");
});

Deno.test("nvidia-smi wins over an AMD sysfs card (detection order)", async () => {
  const runner = fakeRunner({ "nvidia-smi": () => nvidiaCsv[0]! });
  const p = createProfiler({ files: host(amdTree()), runner, clock: new ManualClock() });
  assert.equal((await p.detect())?.tool, "nvidia-smi");
});
