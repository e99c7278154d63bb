/**
 * Fills in `tests/shared/hermes_tokens.json`: for every case, the token count each installed Hermes
 * release's own `estimate_messages_tokens_rough` gives its messages (the releases `.ci/hermes.sh`
 * installed). The Deno tests hold vcc's port of the count to the release the file names as its
 * model; the Hermes integration tests check every release against its own column, so the counts
 * never drift from Hermes.
 *
 * `deno task fixtures` runs it; add a case (its `what` and `messages`), run the task and review the
 * diff.
 *
 * @module
 */
import { join } from "node:path";

/** The shared cases, relative to the repository root. */
export const HERMES_TOKEN_CASES_PATH = "tests/shared/hermes_tokens.json";

/** One window and what each Hermes release counts for it. */
export interface HermesTokenCase {
  readonly what: string;
  readonly messages: readonly unknown[];
  /** Release name (`hermes-agent 0.19.0`) → its count. */
  readonly tokens?: Readonly<Record<string, number>>;
}

/** The case file: the release vcc's count follows, and the cases. */
export interface HermesTokenCases {
  readonly model: string;
  readonly cases: readonly HermesTokenCase[];
}

const COUNT = `
import importlib.metadata, json, sys
from agent.model_metadata import estimate_messages_tokens_rough
name = importlib.metadata.packages_distributions().get("agent", ["unknown"])[0]
cases = json.load(sys.stdin)["cases"]
print(json.dumps({"release": f"{name} {importlib.metadata.version(name)}",
                  "tokens": [estimate_messages_tokens_rough(c["messages"]) for c in cases]}))
`;

/** Runs `python` (a Hermes virtual environment's) over the cases: its release name and counts. */
export async function countWithHermes(
  python: string,
  cases: HermesTokenCases,
): Promise<{ release: string; tokens: number[] }> {
  const child = new Deno.Command(python, {
    args: ["-I", "-c", COUNT],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(cases)));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  if (code !== 0) {
    throw new Error(`${python} could not count: ${new TextDecoder().decode(stderr)}`);
  }
  return JSON.parse(new TextDecoder().decode(stdout));
}

/** Fills in every case's count from each of `pythons` (Hermes virtual environments' interpreters). */
export async function writeHermesTokenCases(
  root: string,
  pythons: readonly string[],
): Promise<void> {
  const path = join(root, HERMES_TOKEN_CASES_PATH);
  const file = JSON.parse(await Deno.readTextFile(path)) as HermesTokenCases;
  const counts: Record<string, number>[] = file.cases.map((c) => ({ ...c.tokens }));
  for (const python of pythons) {
    const { release, tokens } = await countWithHermes(python, file);
    tokens.forEach((count, index) => (counts[index]![release] = count));
  }
  const cases = file.cases.map((c, index) => ({ ...c, tokens: counts[index] }));
  // Characters outside ASCII are written as escapes, so invisible ones show in a review.
  const text = JSON.stringify({ ...file, cases }, null, 2)
    .replace(/[^\n\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  await Deno.writeTextFile(path, `${text}\n`);
}
