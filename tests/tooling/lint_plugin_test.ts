/** The private-module lint rule: a `_` module is for its own folder, the tests and the benchmarks. */
import assert from "node:assert/strict";
import { privateImportProblem } from "../../src/tooling/lint_plugin.ts";

const ROOT = "/home/dev/src/vcc";

Deno.test("a _ module may be imported from its folder, the folders below, tests and benchmarks", () => {
  const allowed: [string, string][] = [
    [`${ROOT}/src/cli/mod.ts`, "./_errors.ts"],
    [`${ROOT}/src/core/sections/goal.ts`, "../_analysis.ts"],
    [`${ROOT}/tests/cli/help_test.ts`, "../../src/cli/_errors.ts"],
    [`${ROOT}/bench/anchors_bench.ts`, "../src/anchors/_patterns.ts"],
    [`${ROOT}/src/hermes/install.ts`, "../cli/errors.ts"],
  ];
  for (const [importer, specifier] of allowed) {
    assert.equal(privateImportProblem(importer, specifier), undefined, `${importer} ${specifier}`);
  }
});

Deno.test("a _ module imported from another folder under src is reported", () => {
  const refused: [string, string][] = [
    [`${ROOT}/src/hermes/install.ts`, "../cli/_errors.ts"],
    [`${ROOT}/src/cli/_bench.ts`, "../bench/headtohead/_stock_prompt.ts"],
    [`${ROOT}/src/core/project.ts`, "./sections/_helper.ts"],
  ];
  for (const [importer, specifier] of refused) {
    assert.match(privateImportProblem(importer, specifier) ?? "", /is private to src\//, specifier);
  }
});
