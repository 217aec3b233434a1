import assert from "node:assert/strict";
import { createProfiler, summarizeSamples } from "../../../lib/bench/profiler.ts";
import { SERIES } from "../../../lib/bench/profiler_types.ts";
import type { HardwareSample } from "../../../lib/bench/events.ts";
import { waitFor } from "../../_helpers.ts";
import { fakeProc, fakeRunner, ManualClock, procStat } from "./_profiler_fakes.ts";

const host = fakeProc;

const nvidiaCsv = [
  "NVIDIA GeForce RTX 4090, 61, 310.55, 20480",
  "NVIDIA GeForce RTX 4090, 70, 280.10, 10240",
  "NVIDIA GeForce RTX 4090, 66, 300.00, 12288",
];

Deno.test("without a GPU the GPU series are null and CPU and RAM are sampled", async () => {
  const files = host();
  const clock = new ManualClock();
  const runner = fakeRunner({});
  const p = createProfiler({ files, runner, clock, intervalMs: 1000 });
  const samples: HardwareSample[] = [];
  p.start((s) => samples.push(s));
  files.files["/proc/stat"] = procStat(150, 950); // 50 busy of 100
  clock.advance(1000);
  await waitFor(() => samples.length === 1, "the first sample");
  files.files["/proc/stat"] = procStat(225, 975); // 75 busy of 100
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
