/**
 * Every Hermes string vcc relies on (`HERMES_STRINGS` in `src/core/hermes.ts`) compared with the
 * constants and sources of each installed Hermes release, so a release that changes one fails
 * here, naming it, instead of quietly breaking what vcc reads or writes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HERMES_STRINGS, type HermesStringSource } from "../src/core/mod.ts";
import {
  installedReleases,
  releaseGeneration,
  releaseLabel,
  repo,
} from "./support/hermes_releases.ts";

const READER = join(repo, "tests", "hermes_vocabulary", "hermes_strings.py");

/** Why Hermes's `held` value does not hold `ours` the way `source` says; undefined when it does. */
function mismatch(
  ours: string | readonly string[],
  source: HermesStringSource,
  held: unknown,
): string | undefined {
  if (held === null) return "the release has no such name";
  const shown = (value: unknown) => JSON.stringify(value);
  switch (source.match) {
    case "equals":
      return held === ours ? undefined : `it holds ${shown(held)}`;
    case "prefix":
      return typeof held === "string" && typeof ours === "string" && held.startsWith(ours)
        ? undefined
        : `it holds ${shown(held)}`;
    case "line":
      return typeof ours === "string" && held === ours.replace(/\n$/, "")
        ? undefined
        : `it holds ${shown(held)}`;
    case "items":
      return JSON.stringify(held) === JSON.stringify(ours) ? undefined : `it holds ${shown(held)}`;
    case "contains":
      return typeof held === "string" && typeof ours === "string" && held.includes(ours)
        ? undefined
        : "its source does not contain it";
  }
}

const releases = await installedReleases();
for (const release of releases ?? []) {
  const generation = releaseGeneration(release.release);
  Deno.test(
    `Hermes's strings as vcc writes them are those of ${releaseLabel(release.release)} ` +
      `(Python ${release.pythonVersion}, generation ${generation})`,
    async () => {
      const pins = HERMES_STRINGS.filter(([, source]) => source.generations.includes(generation));
      const input = JSON.stringify(pins.map(([, { at, kind }]) => ({ at, kind })));
      const child = new Deno.Command(release.python, {
        args: [READER],
        cwd: repo,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        env: { PYTHONDONTWRITEBYTECODE: "1" },
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(input));
      await writer.close();
      const { code, stdout, stderr } = await child.output();
      assert.equal(code, 0, new TextDecoder().decode(stderr));
      const held = JSON.parse(new TextDecoder().decode(stdout)) as unknown[];
      const problems = pins.flatMap(([ours, source], index) => {
        const problem = mismatch(ours, source, held[index]);
        return problem === undefined ? [] : [`${source.at} (${JSON.stringify(ours)}): ${problem}`];
      });
      assert.deepEqual(problems, []);
    },
  );
}
if (releases === undefined) {
  Deno.test({
    name: "Hermes's strings skipped: no Hermes Agent is installed (run `bash .ci/hermes.sh`)",
    ignore: true,
    fn() {},
  });
}
