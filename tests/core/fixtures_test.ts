/**
 * Fixture transcripts and their expected projections, side by side in tests/core/fixtures: each
 * `NAME.json` ({session_id, messages, previous?, focus?, budget_tokens?}) projects to `NAME.md`.
 * `deno task fixtures` rewrites the expected files from this checkout's projector; the rewrite is
 * read as a diff, line by line, before it is committed. It also writes
 * `tests/shared/projection_sections.json`, the section table's ids and headings (and the headings
 * Hermes appends) for the Python checks, which read them instead of restating them.
 */
import assert from "node:assert/strict";
import { APPENDED_HEADINGS, project, SECTION_DESCRIPTIONS } from "../../src/core/mod.ts";
import { parseWindowText } from "../../src/cli/_project_input.ts";

const dir = new URL("./fixtures/", import.meta.url);
const update = Deno.env.get("UPDATE_FIXTURES") === "1";

for (
  const entry of [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".json")).sort(byName)
) {
  const name = entry.name.replace(/\.json$/, "");
  Deno.test(`project() renders fixture ${name} as reviewed`, () => {
    const input = parseWindowText(Deno.readTextFileSync(new URL(entry.name, dir)), entry.name);
    const { body } = project(input.messages, input.options);
    const expectedFile = new URL(`${name}.md`, dir);
    if (update) Deno.writeTextFileSync(expectedFile, `${body}\n`);
    assert.equal(`${body}\n`, Deno.readTextFileSync(expectedFile));
  });
}

Deno.test("tests/shared/projection_sections.json lists the section table's sections", () => {
  const sections = {
    sections: SECTION_DESCRIPTIONS.map(({ id, heading }) => ({ id, heading })),
    appended: APPENDED_HEADINGS,
  };
  const file = new URL("../shared/projection_sections.json", import.meta.url);
  const text = `${JSON.stringify(sections, null, 2)}\n`;
  if (update) Deno.writeTextFileSync(file, text);
  assert.equal(Deno.readTextFileSync(file), text);
});

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
