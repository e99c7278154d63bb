/** The mutation check's mutants still find the source text they change (see `mutants.ts`). */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { MUTANTS, mutatedFiles } from "../../src/tooling/mutants.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("mutatedFiles finds every mutant's text once in this checkout and changes it", async () => {
  for (const mutant of MUTANTS) {
    const files = await mutatedFiles(ROOT, mutant);
    for (const [path, text] of files) {
      assert.notEqual(text, await Deno.readTextFile(`${ROOT}${path}`), mutant.name);
    }
  }
});

Deno.test("mutatedFiles names the mutant whose text is gone", async () => {
  const mutant = { name: "gone", edits: [{ file: "main.ts", find: "no such text", replace: "" }] };
  await assert.rejects(mutatedFiles(ROOT, mutant), /Mutant "gone" expects "no such text" once/);
});
