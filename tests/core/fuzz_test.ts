/**
 * The projector under hostile input (seeded, so a failure names the seed that reproduces it).
 * Every window and previous summary is checked for the promises the README makes: nothing throws,
 * the body fits its budget, the same input gives the same bytes, every `[#N]` names a row of the
 * input or of the previous summary, only the known headings appear (each once), and no control,
 * bidi, format or tag character and no chat-template or Hermes marker survives.
 *
 * `FUZZ_WINDOWS=N` runs N windows (default 2,000); `FUZZ_SEED=S` starts at seed S.
 */
import assert from "node:assert/strict";
import { HEADINGS, project } from "../../src/core/mod.ts";
import { hostilePrevious, hostileWindow } from "./hostile_windows.ts";

const WINDOWS = Number(Deno.env.get("FUZZ_WINDOWS") ?? 2_000);
const FIRST_SEED = Number(Deno.env.get("FUZZ_SEED") ?? 1);
const BUDGETS = [1, 40, 300, 1_500, 8_000];

// Independent of the sanitiser: what must never reach the body.
const FORBIDDEN_CHARACTER =
  /[[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]--[\n]]/v;
const MARKER =
  /<\||\|>|\[\/?INST\]|<<\/?SYS>>|<\/?think>|\[CONTEXT COMPACTION|\[CONTEXT SUMMARY\]|\[PRIOR CONTEXT|\[END OF PRIOR CONTEXT|END OF CONTEXT SUMMARY|\[STILL IN PROGRESS/i;
const STORED_REF = /\[#(\d+)\]/g;
const POSITIONAL_REF = /\[t(\d+)\]/g;

type Property =
  | "throws"
  | "budget"
  | "bytes"
  | "references"
  | "headings"
  | "characters"
  | "markers";
const PROPERTIES: readonly Property[] = [
  "throws",
  "budget",
  "bytes",
  "references",
  "headings",
  "characters",
  "markers",
];

/** Row ids of the input a reference may name: valid `_row_id`s, as the contract reads them. */
function inputRows(window: readonly unknown[]): { ids: Set<string>; count: number } {
  const ids = new Set<string>();
  for (const row of window) {
    const id = (row as { _row_id?: unknown } | null)?._row_id;
    if (typeof id === "number" && Number.isSafeInteger(id) && id >= 0) ids.add(String(id));
    if (typeof id === "string" && /^\d{1,15}$/.test(id)) ids.add(String(Number(id)));
  }
  return { ids, count: window.length };
}

function violations(
  window: readonly unknown[],
  previous: string | undefined,
  budgetTokens: number,
): Property[] {
  let body: string;
  let safetyCut: number;
  try {
    ({ body, stats: { safetyCut } } = project(window, {
      budgetTokens,
      sessionId: "fuzz",
      ...(previous ? { previous } : {}),
    }));
  } catch {
    return ["throws"];
  }
  const found: Property[] = [];
  // The body fits, and not because the last-resort cut had to act.
  if (body.length > budgetTokens * 4 || safetyCut > 0) found.push("budget");
  if (
    project(window, { budgetTokens, sessionId: "fuzz", ...(previous ? { previous } : {}) }).body !==
      body
  ) {
    found.push("bytes");
  }
  const { ids, count } = inputRows(window);
  const previousIds = new Set(
    [...(previous ?? "").matchAll(STORED_REF)].map((m) => m[1] as string),
  );
  const refsOk =
    [...body.matchAll(STORED_REF)].every((m) => ids.has(m[1]!) || previousIds.has(m[1]!)) &&
    [...body.matchAll(POSITIONAL_REF)].every((m) => Number(m[1]) >= 1 && Number(m[1]) <= count);
  if (!refsOk) found.push("references");
  const headings = body.split("\n").filter((line) => line.startsWith("#"));
  if (
    headings.some((line) => !HEADINGS.includes(line)) || new Set(headings).size !== headings.length
  ) {
    found.push("headings");
  }
  if (FORBIDDEN_CHARACTER.test(body)) found.push("characters");
  if (MARKER.test(body)) found.push("markers");
  return found;
}

Deno.test(`project() keeps every promise on ${WINDOWS} hostile windows`, () => {
  const tried = new Map<Property, number>(PROPERTIES.map((property) => [property, 0]));
  const failures: string[] = [];
  const earlier: string[] = [];
  for (let seed = FIRST_SEED; seed < FIRST_SEED + WINDOWS; seed++) {
    const window = hostileWindow(seed, { rows: 30, depth: seed % 10 === 0 ? 3_000 : 12 });
    const previous = seed % 3 === 0 ? hostilePrevious(seed, earlier) : undefined;
    const budgetTokens = BUDGETS[seed % BUDGETS.length] as number;
    for (const property of PROPERTIES) tried.set(property, (tried.get(property) ?? 0) + 1);
    const broken = violations(window, previous, budgetTokens);
    if (broken.length > 0) failures.push(`seed ${seed}: ${broken.join(", ")}`);
    if (earlier.length < 8 && broken.length === 0) {
      earlier.push(project(window, { budgetTokens: 1_500, sessionId: "fuzz" }).body);
    }
  }
  // deno-lint-ignore no-console
  console.log(
    `fuzz: ${WINDOWS} windows from seed ${FIRST_SEED}; ` +
      PROPERTIES.map((property) => `${property} ${tried.get(property)} tried`).join(", ") +
      `; ${failures.length} windows broke a promise`,
  );
  assert.deepEqual(failures.slice(0, 20), []);
});
