import assert from "node:assert/strict";
import {
  caseForms,
  caseVariantPlan,
  foldsInBit5,
  hasCaseVariants,
  MAX_FORMS,
} from "../../../plugins/logmonitor/case_variants.ts";
import { ByteFinder } from "../../../plugins/logmonitor/scan_kernel.ts";

const dec = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("caseForms() lists every form grep -i matches, ASCII left to the kernel", () => {
  assert.deepEqual(caseForms("a"), ["a"]);
  assert.deepEqual(caseForms("Ü"), ["Ü", "ü"]);
  assert.deepEqual(caseForms("п").sort(), ["П", "п"].sort());
  assert.deepEqual(caseForms("ς").sort(), ["Σ", "σ", "ς"].sort());
  assert.equal(hasCaseVariants("°"), false);
  assert.equal(hasCaseVariants("é"), true);
});

Deno.test("caseVariantPlan() searches a piece every case form of the query contains", () => {
  for (const query of ["über", "Привет мир", "ΣΟΦΊΑ", "Straße", "ωμέγα 5"]) {
    const plan = caseVariantPlan(query);
    assert.ok(plan.needles.length >= 1 && plan.needles.length <= MAX_FORMS, query);
    const forms = [query, query.toUpperCase(), query.toLowerCase()];
    // A form of another length (ß → SS) is not one grep -i matches either.
    for (const variant of forms.filter((v) => [...v].length === [...query].length)) {
      const line = `x ${variant} y`;
      assert.ok(plan.test(line), `${query}: ${variant}`);
      const lower = line.toLowerCase();
      assert.ok(
        plan.needles.some((n) => lower.includes(dec(n).toLowerCase())),
        `${query}: a needle is in ${variant}`,
      );
    }
    assert.equal(plan.test("nothing here"), false);
  }
});

Deno.test("a query whose letters' case forms differ in bit 0x20 only is searched in one pass", () => {
  const finder = new ByteFinder(256);
  for (const query of ["привет", "über", "ωμέγα", "Ёлка и ёж", "ÀÉÎõü"]) {
    const plan = caseVariantPlan(query);
    assert.equal(plan.fold, "bit5", query);
    assert.equal(plan.needles.length, 1, query);
    finder.setNeedles(plan.needles, plan.fold);
    for (const variant of [query, query.toUpperCase(), query.toLowerCase()]) {
      const n = new TextEncoder().encodeInto(`x ${variant} y`, finder.hay).written;
      assert.ok(finder.find(0, n) >= 0, `${query}: found in ${variant}`);
    }
  }
  assert.equal(foldsInBit5("р"), false, "р D1 80, Р D0 A0");
  assert.equal(foldsInBit5("и"), true);
});
