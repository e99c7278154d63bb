/**
 * `deno task fixtures`: regenerates every generated fixture from its source, then lists the files
 * that changed, to be read as diffs before they are committed:
 *
 * - `tests/core/fixtures/*.md`: the projections of the fixture transcripts beside them, and
 *   `tests/shared/projection_sections.json` (the fixture test rewrites them when
 *   `UPDATE_FIXTURES=1`);
 * - `bench/golden`: the golden outputs of the generated windows (`vcc bench golden --write`);
 * - `src/anchors/_python_unicode.ts`: Python's character classes, from an installed Hermes's Python;
 * - `tests/shared/hermes_tokens.json`: each installed Hermes release's token count of each case.
 *
 * The last two need the Hermes releases `.ci/hermes.sh` installs; without them they are skipped,
 * and the task says so.
 *
 * @module
 */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { main as vcc } from "../cli/mod.ts";
import { writeAll } from "../wire/mod.ts";
import { HERMES_TOKEN_CASES_PATH, writeHermesTokenCases } from "./hermes_token_cases.ts";
import { readInstalledReleases } from "../hermes/installed_releases.ts";
import { PYTHON_UNICODE_MODULE_PATH, writePythonUnicodeModule } from "./python_unicode.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const GOLDEN_DIR = "bench/golden";
const CORE_FIXTURES = "tests/core/fixtures";
const CORE_FIXTURES_TEST = "tests/core/fixtures_test.ts";
const SHARED_SECTIONS = "tests/shared/projection_sections.json";

/** The text of every file under `paths` (files or directories), by path relative to `ROOT`. */
async function snapshot(paths: readonly string[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const visit = async (path: string): Promise<void> => {
    const info = await Deno.stat(path).catch(() => undefined);
    if (info?.isDirectory) {
      for await (const entry of Deno.readDir(path)) await visit(join(path, entry.name));
    } else if (info?.isFile) files.set(relative(ROOT, path), await Deno.readTextFile(path));
  };
  for (const path of paths) await visit(join(ROOT, path));
  return files;
}

if (import.meta.main) {
  const paths = [
    CORE_FIXTURES,
    SHARED_SECTIONS,
    GOLDEN_DIR,
    PYTHON_UNICODE_MODULE_PATH,
    HERMES_TOKEN_CASES_PATH,
  ];
  const before = await snapshot(paths);
  Deno.chdir(ROOT);
  const rewrite = new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "--quiet",
      "--allow-read",
      `--allow-write=${CORE_FIXTURES},${SHARED_SECTIONS}`,
      "--allow-env=UPDATE_FIXTURES",
      CORE_FIXTURES_TEST,
    ],
    env: { UPDATE_FIXTURES: "1" },
    stdout: "null",
  });
  if (!(await rewrite.output()).success) Deno.exit(1);
  const code = await vcc(["bench", "golden", "--write", "--golden-dir", GOLDEN_DIR]);
  if (code !== 0) Deno.exit(code);
  const pythons = ((await readInstalledReleases(ROOT)) ?? []).map(({ python }) => python);
  if (pythons.length > 0) {
    await writePythonUnicodeModule(ROOT, pythons[0]!);
    await writeHermesTokenCases(ROOT, pythons);
  } else {
    writeAll(
      Deno.stderr,
      `no Hermes installed (run \`bash .ci/hermes.sh\`): ${PYTHON_UNICODE_MODULE_PATH} and ` +
        `${HERMES_TOKEN_CASES_PATH} were left as they are\n`,
    );
  }
  const after = await snapshot(paths);
  const changed = [...new Set([...before.keys(), ...after.keys()])]
    .filter((path) => before.get(path) !== after.get(path)).sort();
  writeAll(
    Deno.stderr,
    changed.length === 0
      ? "fixtures: nothing changed\n"
      : `fixtures: ${changed.length} changed; read the diff before committing:\n` +
        changed.map((path) => `  git diff -- ${path}\n`).join(""),
  );
}
