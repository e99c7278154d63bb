import { SECTION_DESCRIPTIONS } from "../../core/mod.ts";

/** The session log's lines, told apart by their shape. */
const LOG_KINDS = ["log-user", "log-assistant", "log-system", "log-call", "log-result"] as const;

/**
 * The kinds of projection lines that cite messages; the negative control plants in each. Section
 * kinds come from the section table (the log's from the shape of its lines), so a new section
 * brings its own kind.
 */
export const LINE_KINDS: readonly string[] = [
  // Quoted lines of an earlier summary never cite a message; the log's kinds are by shape.
  ...SECTION_DESCRIPTIONS.map((section) => section.id as string).filter((kind) =>
    kind !== "quotedLines" && kind !== "log"
  ),
  ...LOG_KINDS,
  "other",
];

/** One of {@linkcode LINE_KINDS}. */
export type LineKind = string;

/** A projection line with the section it belongs to. */
export interface SectionLine {
  /** 0-based line number in the body. */
  readonly index: number;
  readonly text: string;
  readonly kind: LineKind;
}

const KIND_OF_HEADING = new Map<string, LineKind>(
  SECTION_DESCRIPTIONS.flatMap((section) =>
    [section.heading, ...section.formerHeadings].map((heading) => [heading, section.id])
  ),
);

/** Splits a projection body into lines and gives each the kind its section and shape imply. */
export function classifyLines(body: string): SectionLine[] {
  let section: LineKind = "other";
  return body.split("\n").map((text, index) => {
    if (text.startsWith("## ")) {
      section = KIND_OF_HEADING.get(text) ?? "other";
      return { index, text, kind: "other" };
    }
    return { index, text, kind: section === "log" ? logKind(text) : section };
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
