/**
 * Fixture transcripts and their expected projections, side by side in tests/core/fixtures: each
 * `NAME.json` ({session_id, messages, previous?, focus?, budget_tokens?}) projects to `NAME.md`.
 * The expected files are read and reviewed line by line when they change.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { parseWindowText } from "../../src/cli/_project_input.ts";

const dir = new URL("./fixtures/", import.meta.url);

for (
  const entry of [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".json")).sort(byName)
) {
  const name = entry.name.replace(/\.json$/, "");
  Deno.test(`project() renders fixture ${name} as reviewed`, () => {
    const input = parseWindowText(Deno.readTextFileSync(new URL(entry.name, dir)), entry.name);
    const expected = Deno.readTextFileSync(new URL(`${name}.md`, dir));
    const { body } = project(input.messages, input.options);
    assert.equal(`${body}\n`, expected);
  });
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
