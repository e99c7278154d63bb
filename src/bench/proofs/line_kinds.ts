/** The kinds of projection lines that cite messages; the negative control plants in each. */
export const LINE_KINDS = [
  "snapshot",
  "goal",
  "blocked",
  "errors-fixes",
  "error-names",
  "files",
  "commands",
  "log-user",
  "log-assistant",
  "log-system",
  "log-call",
  "log-result",
  "other",
] as const;

/** One of {@linkcode LINE_KINDS}. */
export type LineKind = typeof LINE_KINDS[number];

const SECTION_KINDS: ReadonlyArray<readonly [string, LineKind]> = [
  ["## Historical Task Snapshot", "snapshot"],
  ["## Goal", "goal"],
  ["## Blocked", "blocked"],
  ["## Errors & Fixes", "errors-fixes"],
  ["## Error Names Seen", "error-names"],
  ["## Relevant Files", "files"],
  ["## Commands Run", "commands"],
  ["## Detailed Session Log", "log-user"],
];

/** A projection line with the section it belongs to. */
export interface SectionLine {
  /** 0-based line number in the body. */
  readonly index: number;
  readonly text: string;
  readonly kind: LineKind;
}

/** Splits a projection body into lines and gives each the kind its section and shape imply. */
export function classifyLines(body: string): SectionLine[] {
  let section: LineKind = "other";
  return body.split("\n").map((text, index) => {
    if (text.startsWith("## ")) {
      section = SECTION_KINDS.find(([heading]) => text.startsWith(heading))?.[1] ?? "other";
      return { index, text, kind: "other" };
    }
    return { index, text, kind: section === "log-user" ? logKind(text) : section };
  });
}

function logKind(text: string): LineKind {
  const rest = text.replace(/^\[(?:#\d+|t\d+)\]\s*/, "");
  if (rest.startsWith("→")) return "log-call";
  if (rest.startsWith("←")) return "log-result";
  if (rest.startsWith("user:")) return "log-user";
  if (rest.startsWith("assistant:")) return "log-assistant";
  if (rest.startsWith("system:")) return "log-system";
  return "other";
}
