import assert from "node:assert/strict";
import { createProfiler, summarizeSamples } from "../../../lib/bench/profiler.ts";
import { SERIES } from "../../../lib/bench/profiler_types.ts";
import type { HardwareSample } from "../../../lib/bench/events.ts";
import { programPermissions, runDeno, waitFor } from "../../_helpers.ts";
import { fakeProc, fakeRunner, fakeSensors, ManualClock } from "./_profiler_fakes.ts";

const host = fakeProc;

const nvidiaCsv = [
  "NVIDIA GeForce RTX 4090, 61, 310.55, 20480",
  "NVIDIA GeForce RTX 4090, 70, 280.10, 10240",
  "NVIDIA GeForce RTX 4090, 66, 300.00, 12288",
];

Deno.test("without a GPU the GPU series are null and CPU and RAM are sampled", async () => {
  const files = host();
  const sensors = fakeSensors({ busy: 100, idle: 900, usedGiB: 4 });
  const clock = new ManualClock();
  const runner = fakeRunner({});
  const p = createProfiler({ files, sensors, runner, clock, intervalMs: 1000 });
  const samples: HardwareSample[] = [];
  p.start((s) => samples.push(s));
  Object.assign(sensors.state, { busy: 150, idle: 950 }); // 50 busy of 100
  clock.advance(1000);
  await waitFor(() => samples.length === 1, "the first sample");
  Object.assign(sensors.state, { busy: 225, idle: 975 }); // 75 busy of 100
  clock.advance(1000);
  await waitFor(() => samples.length === 2, "the second sample");
  const summary = await p.stop();
  assert.equal(clock.timers, 0, "stop cancels the sampling timer");
  assert.equal(p.gpuName(), null);
  assert.equal(await p.vramUsedMb(), null);
  assert.deepEqual(samples.map((s) => s.cpu_percent), [50, 75]);
  assert.equal(samples[0]!.ram_gb, 4);
  assert.equal(summary.cpu_percent_min, 50);
  assert.equal(summary.cpu_percent_max, 75);
  assert.equal(summary.cpu_percent_mean, 62.5);
  assert.equal(summary.ram_gb_mean, 4);
  for (const series of ["temp_c", "power_w", "gpu_vram_gb", "gtt_gb"]) {
    for (const stat of ["min", "max", "mean"]) assert.equal(summary[`${series}_${stat}`], null);
  }
  assert.equal(Object.keys(summary).length, SERIES.length * 3);
});

Deno.test("nvidia-smi is read for every GPU: hottest temperature, summed power and memory", async () => {
  const files = host();
  const clock = new ManualClock();
  const runner = fakeRunner({
    "nvidia-smi": (_args, call) =>
      call === 0 ? nvidiaCsv[0] + "\n" + nvidiaCsv[0] + "\n" : nvidiaCsv[Math.min(call, 2)]! + "\n",
  });
  const p = createProfiler({ files, runner, clock });
  const samples: HardwareSample[] = [];
  p.start((s) => samples.push(s));
  await p.detect();
  assert.equal(p.gpuName(), "2 × NVIDIA GeForce RTX 4090");
  clock.advance(1000);
  await waitFor(() => samples.length === 1);
  clock.advance(1000);
  await waitFor(() => samples.length === 2);
  clock.time += 600; // more than half a period since the last sample
  const summary = await p.stop();
  assert.equal(samples.length, 3, "stop takes one last sample after a full period");
  assert.equal(summary.temp_c_min, 66);
  assert.equal(summary.temp_c_max, 70);
  assert.equal(summary.power_w_max, 300);
  assert.equal(summary.gpu_vram_gb_min, 10);
  assert.equal(summary.gtt_gb_mean, null, "NVIDIA has no GTT");
  assert.equal(await p.vramUsedMb(), 12288);
  const query = runner.calls.find((c) => c.cmd === "nvidia-smi")!;
  assert.ok(query.args.some((a) => a.startsWith("--query-gpu=")));
});

Deno.test("nvidia-smi values shown as [N/A] are null, not zero", async () => {
  const runner = fakeRunner({
    "nvidia-smi": () => "Tesla T4, 45, [N/A], 1024\n",
  });
  const p = createProfiler({ files: host(), runner, clock: new ManualClock() });
  const s = await p.sample();
  assert.equal(s.power_w, null);
  assert.equal(s.temp_c, 45);
  assert.equal(s.gpu_vram_gb, 1);
});

Deno.test("nvidia-smi outside PATH is found in /usr/local/cuda/bin", async () => {
  const runner = fakeRunner({ "/usr/local/cuda/bin/nvidia-smi": () => nvidiaCsv[0]! });
  const p = createProfiler({ files: host(), runner, clock: new ManualClock() });
  assert.equal((await p.detect())?.tool, "nvidia-smi");
  assert.equal(p.gpuName(), "NVIDIA GeForce RTX 4090");
});

Deno.test("a GPU reading that fails gives null GPU values for that sample only", async () => {
  let fail = false;
  const runner = fakeRunner({
    "nvidia-smi": () =>
      fail ? { code: 9, stdout: "", stderr: "NVML error", timedOut: false } : nvidiaCsv[0]!,
  });
  const p = createProfiler({ files: host(), runner, clock: new ManualClock() });
  assert.equal((await p.sample()).temp_c, 61);
  fail = true;
  const s = await p.sample();
  assert.equal(s.temp_c, null);
  assert.equal(typeof s.ram_gb, "number");
  assert.equal(p.latest(), s);
});

Deno.test("stop without start returns an all-null summary", async () => {
  const p = createProfiler({ files: host(), runner: fakeRunner({}), clock: new ManualClock() });
  const summary = await p.stop();
  assert.ok(Object.values(summary).every((v) => v === null));
});

Deno.test("summaries take min, max and mean over the numbers of each series", () => {
  const base = {
    time: 0,
    temp_c: null,
    power_w: null,
    gpu_vram_gb: null,
    gtt_gb: null,
    cpu_percent: null,
    ram_gb: null,
  };
  const s = summarizeSamples([
    { ...base, temp_c: 50, cpu_percent: 10 },
    { ...base, temp_c: 70 },
    { ...base, temp_c: 60, cpu_percent: 30 },
  ]);
  assert.deepEqual([s.temp_c_min, s.temp_c_max, s.temp_c_mean], [50, 70, 60]);
  assert.equal(s.cpu_percent_mean, 20);
  assert.equal(s.power_w_mean, null);
});

Deno.test("on this machine CPU % and RAM are numbers and, without a GPU, the GPU fields are null", async () => {
  const p = createProfiler({ intervalMs: 50 });
  const samples: HardwareSample[] = [];
  p.start((s) => samples.push(s));
  await waitFor(() => samples.length >= 2, "two samples");
  const summary = await p.stop();
  assert.equal(typeof summary.cpu_percent_mean, "number");
  assert.ok(summary.cpu_percent_mean! >= 0 && summary.cpu_percent_mean! <= 100);
  assert.equal(typeof summary.ram_gb_mean, "number");
  assert.ok(summary.ram_gb_mean! > 0);
  if ((await p.detect()) === null) {
    assert.equal(p.gpuName(), null);
    for (const series of ["temp_c", "power_w", "gpu_vram_gb", "gtt_gb"]) {
      assert.equal(summary[`${series}_mean`], null);
    }
  }
});

async function profileUnder(flags: string[]) {
  const r = await runDeno(["run", ...flags, "tests/lib/bench/_fixtures/profile_once.ts"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as { sample: HardwareSample; unreadable: string[] };
}

for (const program of ["bench", "webapp", "compiled"]) {
  Deno.test(`under the permissions of ${program}, CPU and RAM are read and no sensor is refused`, async () => {
    const { sample, unreadable } = await profileUnder(programPermissions(program));
    assert.deepEqual(unreadable, []);
    assert.equal(typeof sample.cpu_percent, "number");
    assert.ok(sample.ram_gb! > 0, `RAM in use: ${sample.ram_gb}`);
  });
}

Deno.test("a sensor this program may not read is named with the permission it lacks", async () => {
  const { sample, unreadable } = await profileUnder(["--allow-read", "--allow-env"]);
  assert.equal(sample.cpu_percent, null);
  assert.equal(sample.ram_gb, null);
  assert.match(unreadable.join("\n"), /^CPU use cannot be read: .*--allow-sys/m);
  assert.match(unreadable.join("\n"), /^RAM in use cannot be read: .*--allow-sys/m);
  assert.match(unreadable.join("\n"), /^GPU cannot be read: .*--allow-run/m);
});

Deno.test("unreadable() names each failing sensor once, however many samples fail", async () => {
  const sensors = fakeSensors({ busy: 1, idle: 1, usedGiB: 1, error: new Error("refused") });
  const p = createProfiler({ files: host(), sensors, runner: fakeRunner({}) });
  await p.sample();
  await p.sample();
  assert.deepEqual(p.unreadable(), [
    "CPU use cannot be read: refused",
    "RAM in use cannot be read: refused",
  ]);
});
