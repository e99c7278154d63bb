/**
 * Hermes replaces old tool results with one-line stubs before the summary step. These parsers read
 * back what a stub still says: the command and its exit code, the path, the operation.
 *
 * @module
 */
import { CLEARED_PLACEHOLDER, DUPLICATE_PLACEHOLDER, REFUSED_STUB_ENDINGS } from "./hermes.ts";

/** What a pruning stub or placeholder says about the result it replaced. */
export type Stub =
  | {
    readonly kind: "terminal";
    readonly command: string;
    /** Whether Hermes cut the command to 77 characters plus `...`. */
    readonly truncated: boolean;
    /** `undefined` for `-> exit ?`. */
    readonly exitCode: number | undefined;
  }
  | { readonly kind: "execute_code"; readonly code: string }
  | { readonly kind: "process"; readonly action: string; readonly session: string }
  | { readonly kind: "file"; readonly tool: string; readonly path: string }
  | { readonly kind: "other"; readonly tool: string }
  /** A call Hermes refused (`blocked`) or that awaits the user's approval (`pending`). */
  | { readonly kind: "refused"; readonly tool: string; readonly pending: boolean }
  /** Output cleared, deduplicated or demoted: nothing about the result survives. */
  | { readonly kind: "cleared" };

const TERMINAL = /^\[terminal\] ran `([\s\S]*)` -> exit (-?\d+|\?), [\d,]+ lines? output\s*$/;
const EXECUTE_CODE = /^\[execute_code\] `([\s\S]*)` \([\d,]+ lines? output\)\s*$/;
const PROCESS = /^\[process(?:_manage)?\] (\S+) session=(\S*)/;
const FILE_PATTERNS: ReadonlyArray<readonly [string, RegExp]> = [
  ["read_file", /^\[read_file\] read (.+) from line \d+ \([\d,]+ chars\)\s*$/],
  ["write_file", /^\[write_file\] wrote to (.+) \([\d,]+ lines?\)\s*$/],
  ["patch", /^\[patch\] \S+ in (.+) \([\d,]+ chars result\)\s*$/],
  ["search_files", /^\[search_files\] \S+ search for '.*' in (.+) -> [\d,]+ match(?:es)?\s*$/],
];
const CLEARED = [
  new RegExp(`^${RegExp.escape(CLEARED_PLACEHOLDER)}`),
  new RegExp(`^${RegExp.escape(DUPLICATE_PLACEHOLDER.split(" —")[0] as string)}`),
  /^\[\S+ output demoted at compaction/,
  /^\[screenshot removed/,
  /^\[Attached image — stripped/,
];
const GENERIC = /^\[([\w.-]+)\] .*\([\d,]+ chars(?: result)?\)/;
const REFUSED = new RegExp(
  `^\\[([\\w.-]+)\\](?: \`[^\`\\n]*\`)? (${
    Object.values(REFUSED_STUB_ENDINGS).map(RegExp.escape).join("|")
  })`,
);
// Any pruning line: one line opened by the tool's name in brackets (Hermes has one shape per tool,
// and releases add more).
const PRUNING_LINE = /^\[[\w.-]{1,64}\][^\n]{0,400}$/;

/**
 * Whether `text` is one of Hermes's stand-ins for a result, of any shape (a stub or placeholder
 * this module reads, or a one-line stub it does not know): what a stored result may have been
 * replaced with.
 */
export function isPruningLine(text: string): boolean {
  const line = text.trim();
  return PRUNING_LINE.test(line) || parseStub(line) !== undefined;
}

/** Parses a pruning stub or placeholder; `undefined` when `text` is an ordinary tool result. */
export function parseStub(text: string): Stub | undefined {
  if (!text.startsWith("[") || text.length > 2000) return undefined;
  const terminal = TERMINAL.exec(text);
  if (terminal) {
    const command = terminal[1] ?? "";
    const code = terminal[2] ?? "?";
    return {
      kind: "terminal",
      command,
      truncated: command.length === 80 && command.endsWith("..."),
      exitCode: code === "?" ? undefined : Number(code),
    };
  }
  const refused = REFUSED.exec(text);
  if (refused) {
    return {
      kind: "refused",
      tool: refused[1] ?? "",
      pending: refused[2] === REFUSED_STUB_ENDINGS.pending,
    };
  }
  const code = EXECUTE_CODE.exec(text);
  if (code) return { kind: "execute_code", code: code[1] ?? "" };
  const process = PROCESS.exec(text);
  if (process) return { kind: "process", action: process[1] ?? "", session: process[2] ?? "" };
  for (const [tool, pattern] of FILE_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return { kind: "file", tool, path: match[1] ?? "" };
  }
  if (CLEARED.some((pattern) => pattern.test(text))) return { kind: "cleared" };
  const generic = GENERIC.exec(text);
  if (generic) return { kind: "other", tool: generic[1] ?? "" };
  return undefined;
}
