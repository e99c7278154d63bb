/**
 * Fixture transcripts and their expected projections, side by side in tests/core/fixtures: each
 * `NAME.json` ({session_id, messages, previous?, focus?, budget_tokens?}) projects to `NAME.md`.
 * `deno task fixtures` rewrites the expected files from this checkout's projector; the rewrite is
 * read as a diff, line by line, before it is committed.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
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

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
