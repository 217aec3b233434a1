/**
 * A 200-line G-code file uploaded through the host's API and printed to the end on a Marlin
 * printer over a real tty (the simulator), with resend requests in the middle: every line
 * reaches the firmware exactly once, in order.
 */
import assert from "node:assert/strict";
import { gcodeFile, startRig } from "./_marlin_rig.ts";

Deno.test({
  name:
    "a 200-line file uploaded and printed to the end, with resends in the middle: each line reaches the printer once, in order",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using rig = await startRig({ connectAt: 250000 });
    const file = gcodeFile(200);
    const upload = await rig.upload("part.gcode", file.text, { select: "true" });
    assert.equal(upload.status, 201, JSON.stringify(upload.body));
    assert.equal(upload.body.effectiveSelect, true);
    const selected = (await rig.call("GET", "/api/job")).body;
    assert.deepEqual([selected.state, selected.job.file.name], ["Operational", "part.gcode"]);

    // The printer refuses line 100 (a checksum mismatch) and line 150 (a wrong line number).
    const refused: number[] = [];
    rig.onceSent(file.lines[99]!, (n) => {
      rig.sim.controls.failNext(1, "checksum");
      refused.push(n);
    });
    rig.onceSent(file.lines[149]!, (n) => {
      rig.sim.controls.resendFrom(n);
      refused.push(n);
    });
    const before = rig.states().length;
    const start = await rig.call("POST", "/api/job", { command: "start" });
    assert.equal(start.status, 204, JSON.stringify(start.body));
    await rig.until("the print's end", () => rig.states().at(-1) === "OPERATIONAL", 30_000);

    assert.deepEqual(rig.states().slice(before), ["PRINTING", "FINISHING", "OPERATIONAL"]);
    assert.equal(refused.length, 2, "both refusals happened");
    assert.deepEqual(rig.accepted(/^G1 /), file.lines, "every line once, in order");
    const resends = rig.events.flatMap((e) =>
      e.type === "terminal" && e.line.direction === "received" &&
        /^Resend: ?\d+$/.test(e.line.text)
        ? [e.line.text]
        : []
    );
    assert.deepEqual(resends, refused.map((n) => `Resend: ${n}`), "each refused line asked again");
    const job = (await rig.call("GET", "/api/job")).body;
    assert.equal(job.state, "Operational");
    assert.equal(job.job.file.name, "part.gcode");
    assert.equal(job.progress.completion, 100);
    assert.equal(job.progress.lines, 200);
    assert.equal(job.progress.filepos, new TextEncoder().encode(file.text).length);
    assert.equal((await rig.current()).state, "Operational");
  },
});
