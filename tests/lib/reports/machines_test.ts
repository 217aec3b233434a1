import assert from "node:assert/strict";
import { join } from "node:path";
import {
  buildReport,
  exportEntries,
  renderCsv,
  renderHtml,
  renderJson,
  renderPdf,
  type ReportData,
} from "../../../lib/reports/mod.ts";
import { machinePairs, reportMachines } from "../../../lib/reports/machines.ts";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { machineRecord } from "../store/_machines.ts";
import { parseCsv } from "./csv_parse.ts";
import { fillStore, FIXTURE_MODELS, runOptions } from "./fixtures.ts";

/** Three results: two on two machines, one stored before machines were recorded. */
async function twoMachineReport(): Promise<ReportData> {
  const store = ResultsStore.open(":memory:");
  try {
    const [a, b] = fillStore(store, FIXTURE_MODELS.slice(0, 3));
    const desk = machineRecord("aaaa000000000001", "desk");
    const server = machineRecord("bbbb000000000002", "rack-server");
    for (const [id, m] of [[a!, desk], [b!, server]] as const) {
      store.recordMachine(m);
      store.db.prepare("UPDATE results SET machine_id = ?, system_json = ? WHERE id = ?")
        .run(m.id, JSON.stringify(m), id);
    }
    const opts = runOptions({ action: "export-only" });
    return await buildReport(exportEntries(store, opts.filters), {
      source: "export-only",
      options: opts,
      resultsDir: "/nonexistent",
      now: () => new Date(2026, 2, 2, 9, 30, 0),
    });
  } finally {
    store.close();
  }
}

Deno.test("every report names the machine of each result and describes each machine", async () => {
  const data = await twoMachineReport();
  const machines = reportMachines(data.entries);
  assert.deepEqual(machines.map((m) => m.name).sort(), ["desk", "rack-server", "unknown machine"]);
  const desk = machinePairs(data.entries).find(([name]) => name === "desk")![1];
  assert.match(desk, /Debian GNU\/Linux 13/);
  assert.match(desk, /AMD Ryzen 9 7950X × 32 cores/);
  assert.match(desk, /62\.5 GiB RAM/);
  assert.match(desk, /GPU of desk \(nvidia 550\.54\)/);
  assert.match(desk, /llama\.cpp at http:\/\/127\.0\.0\.1:8080, version b6000/);

  const json = JSON.parse(renderJson(data));
  assert.deepEqual(
    json.results.map((r: { machine: string }) => r.machine).sort(),
    ["desk", "rack-server", "unknown machine"],
  );
  assert.equal(json.machines.length, 3);
  const onDesk = json.results.find((r: { machine: string }) => r.machine === "desk");
  assert.equal(onDesk.machine_id, "aaaa000000000001");
  assert.equal(onDesk.system.gpus[0].name, "GPU of desk");

  const [head, ...rows] = parseCsv(renderCsv(data));
  const col = head!.indexOf("machine_name");
  assert.ok(col > 0 && head!.includes("machine_id"));
  assert.deepEqual(rows.map((r) => r[col]).sort(), ["desk", "rack-server", "unknown machine"]);

  const html = await renderHtml(data);
  assert.match(html, /<th[^>]*>Machine<\/th>/);
  assert.match(html, /<section id="machines"/);
  for (const name of ["desk", "rack-server", "unknown machine"]) assert.ok(html.includes(name));
});

const hasPoppler = (() => {
  try {
    return Deno.statSync("/usr/bin/pdftotext").isFile;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "the PDF names each result's machine when there are several, and lists the machines",
  ignore: !hasPoppler,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      const file = join(dir, "report.pdf");
      await Deno.writeFile(file, await renderPdf(await twoMachineReport()));
      const out = await new Deno.Command("pdftotext", { args: ["-layout", file, "-"] }).output();
      const text = new TextDecoder().decode(out.stdout).replace(/\s+/g, " ");
      assert.match(text, /They ran on 3 machines/);
      assert.match(text, /on desk/);
      assert.match(text, /on rack-server/);
      assert.match(text, /Machines \(as each result recorded them\)/);
      assert.match(text, /GPU of desk \(nvidia 550\.54\)/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
