/**
 * How a line names a call — `tool \`subject\` (id 1a2b3c4d)` in Blocked and Errors & Fixes, the
 * subject alone in Commands Run — and how that name is read back. The fingerprint appears when the
 * shown subject does not determine the call; the merge key is then the fingerprint.
 *
 * @module
 */
import type { CallGroup } from "../calls.ts";
import { inlineCode } from "../command.ts";
import { cutMiddle } from "../excerpt.ts";
import { shortenCommand } from "../command_display.ts";
import { COMMAND_TOOLS } from "../hermes.ts";
import { readRoot, type RootView, showRoot } from "../root.ts";
import { sanitizeInline } from "../sanitize.ts";

/** The word before a call's fingerprint. */
export const FINGERPRINT_WORD = "id";
/** The word before the process id of a background job. */
export const JOB_WORD = "job";

/** A call as a line names it. */
export interface CallName {
  /** The tool (sanitised); empty in Commands Run, which names only commands. */
  readonly tool: string;
  readonly subject: string;
  readonly fingerprint?: string;
  /** The background job the call started or reports on (Hermes's process id). */
  readonly job?: string;
  /**
   * Where its subject, as shown, differs from another call's that would show the same when
   * shortened: the place a shortened subject shows (see {@linkcode apartNames}). Never read back.
   */
  readonly differsAt?: number;
}

/** The name of a group's calls; `withTool: false` for Commands Run. */
export function callName(group: CallGroup, withTool: boolean): CallName {
  return {
    tool: withTool ? group.label : "",
    subject: group.subject,
    ...(group.fingerprint === undefined ? {} : { fingerprint: group.fingerprint }),
    ...(group.job === undefined ? {} : { job: group.job }),
  };
}

/**
 * The merge key of a call name: its fingerprint when it has one, else what it shows; a command
 * by its subject alone, so the same command is one key in every section that names it.
 */
export function callKey(name: CallName): string {
  if (name.job !== undefined) return `${JOB_WORD} ${name.job}`;
  if (name.fingerprint !== undefined) return `id ${name.fingerprint}`;
  return isCommandName(name) ? `cmd ${name.subject}` : `${name.tool}\u0000${name.subject}`;
}

/** Whether a name is a command's (Commands Run names commands without their tool). */
export function isCommandName(name: CallName): boolean {
  return name.tool === "" || COMMAND_TOOLS.has(name.tool);
}

/**
 * `tool \`subject\` (id …)`, the subject's paths under the view's root shown from it, then
 * shortened to `width` characters: a command by its words (see `command_display.ts`), anything
 * else in its middle.
 */
export function renderCallName(name: CallName, width: number, view: RootView): string {
  const parts: string[] = [];
  if (name.tool !== "") parts.push(name.tool);
  if (name.subject !== "") parts.push(inlineCode(shownSubject(name, width, view)));
  if (name.job !== undefined) parts.push(`(${JOB_WORD} ${name.job})`);
  if (name.fingerprint !== undefined) parts.push(`(${FINGERPRINT_WORD} ${name.fingerprint})`);
  return parts.join(" ");
}

/** What a call name shows of its subject in `width` characters (see {@linkcode renderCallName}). */
export function shownSubject(name: CallName, width: number, view: RootView): string {
  const subject = showRoot(name.subject, view);
  return isCommandName(name)
    ? shortenCommand(subject, width, name.differsAt)
    : cutMiddle(subject, width);
}

/**
 * `names`, whose shortened subjects show the same, each shown apart from the others: its subject
 * is shortened around where it first differs from the one it shares the longest start with (a
 * here-document whose body changed in the middle). Names with the same subject stay as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WHOLE_PATHS } from "../root.ts";
 * import { apartNames, shownSubject } from "./call_label.ts";
 * const body = (n: number) => `cat > t.py << 'EOF' ${"a = 1 ".repeat(40)}x = ${n} ${"b = 2 ".repeat(40)} EOF`;
 * const names = [1, 2].map((n) => ({ tool: "", subject: body(n) }));
 * const shown = (name: (typeof names)[number]) => shownSubject(name, 60, WHOLE_PATHS);
 * assert.equal(shown(names[0]!), shown(names[1]!));
 * const [one, two] = apartNames(names, WHOLE_PATHS);
 * assert.notEqual(shown(one!), shown(two!));
 * ```
 */
export function apartNames(names: readonly CallName[], view: RootView): CallName[] {
  const shown = names.map((name) => showRoot(name.subject, view));
  // The longest start a text shares with any other is the one it shares with a neighbour in order.
  const order = shown.map((_, index) => index).sort((a, b) =>
    (shown[a] as string) < (shown[b] as string)
      ? -1
      : (shown[a] as string) > (shown[b] as string)
      ? 1
      : a - b
  );
  const differsAt = shown.map(() => 0);
  order.forEach((index, at) => {
    for (const neighbour of [order[at - 1], order[at + 1]]) {
      if (neighbour === undefined) continue;
      const same = sharedStart(shown[index] as string, shown[neighbour] as string);
      differsAt[index] = Math.max(differsAt[index] as number, same);
    }
  });
  return names.map((name, index) =>
    (differsAt[index] as number) < (shown[index] as string).length
      ? { ...name, differsAt: differsAt[index] as number }
      : name
  );
}

/** How many characters `a` and `b` share from their start. */
function sharedStart(a: string, b: string): number {
  let same = 0;
  while (same < a.length && a[same] === b[same]) same++;
  return same;
}

/** Entries named by calls, each shown apart from the others (see {@linkcode apartNames}). */
export function apartEntries<E extends { readonly name: CallName }>(
  entries: readonly E[],
  view: RootView,
): E[] {
  const names = apartNames(entries.map((entry) => entry.name), view);
  return entries.map((entry, index) => ({ ...entry, name: names[index] as CallName }));
}

// A code span as `inlineCode` writes it: plain backticks, or fences around text with backticks.
const CODE = String.raw`(?:\x60([^\x60]*)\x60|(\x60{2,}) (.+?) \2)`;

/** How many capture groups {@linkcode callNamePattern} holds. */
export const CALL_NAME_GROUPS = 6;

/**
 * The grammar of a call name inside a line, as a pattern source: with a tool (one word) or without,
 * then an optional code span and fingerprint. Read the groups with {@linkcode readCallName}.
 */
export function callNamePattern(withTool: boolean): string {
  const tool = withTool ? String.raw`(\S+)` : "()";
  return String.raw`${tool}(?:${
    withTool ? " " : ""
  }${CODE})?(?: \(${JOB_WORD} ([\w.-]{1,64})\))?(?: \(${FINGERPRINT_WORD} ([0-9a-f]{8})\))?`;
}

/**
 * The call name in the groups of a {@linkcode callNamePattern} match, starting at `first`, of a
 * line rendered with `view`.
 */
export function readCallName(match: RegExpExecArray, first: number, view: RootView): CallName {
  // Read-back text is quoted text again: a reference inside it must not pass for one.
  const tool = sanitizeInline(match[first] ?? "");
  const subject = readRoot(sanitizeInline(match[first + 1] ?? match[first + 3] ?? ""), view);
  const job = match[first + 4];
  const fingerprint = match[first + 5];
  return {
    tool,
    subject,
    ...(fingerprint === undefined ? {} : { fingerprint }),
    ...(job === undefined ? {} : { job }),
  };
}
