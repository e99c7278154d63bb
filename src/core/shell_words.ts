/**
 * Just enough shell reading to name the program a command line runs: its top-level segments (split
 * at unquoted `|`, `;`, `&`, `&&`, `||` and newlines) and each segment's words. Anything this
 * cannot read with certainty (command substitution, an unterminated quote) reads as unknown, and
 * callers then claim nothing.
 *
 * @module
 */
import { textMemo } from "./text_memo.ts";

/** One top-level segment of a command line: its words (quotes removed) and the operator after it. */
export interface ShellSegment {
  readonly words: readonly string[];
  /** `|`, `;`, `&`, `&&`, `||`, `\n`, or "" for the last segment. */
  readonly then: string;
}

// A word the shell reads as it is written: it needs no quotes.
const PLAIN_WORD = /^[\w@%+=:,./~-]+$/;

/**
 * `word` as a shell reads it back as one word: as it is when plain, else in single quotes (a
 * quote within closed, given as `"'"`, and reopened).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellQuoted, shellSegments } from "./shell_words.ts";
 * assert.equal(shellQuoted("/srv/app"), "/srv/app");
 * assert.equal(shellQuoted("/home/me/My Projects"), "'/home/me/My Projects'");
 * assert.deepEqual(shellSegments(`cd ${shellQuoted("it's here")}`)?.[0]?.words, ["cd", "it's here"]);
 * ```
 */
export function shellQuoted(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}

/** Longest command line read; longer ones read as unknown. */
const MAX_CHARS = 65_536;

/**
 * Splits a command line into top-level segments, or `undefined` when it cannot be read with
 * certainty (substitutions, unterminated quotes, very long lines). A session runs the same lines
 * again and its sections read each many times: a line is read once while remembered.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellSegments } from "./shell_words.ts";
 * assert.deepEqual(shellSegments("cd 'my dir' && grep -n x a.py"), [
 *   { words: ["cd", "my dir"], then: "&&" },
 *   { words: ["grep", "-n", "x", "a.py"], then: "" },
 * ]);
 * assert.equal(shellSegments("echo $(date)"), undefined);
 * ```
 */
export const shellSegments: (line: string) => readonly ShellSegment[] | undefined = textMemo(
  readSegments,
  4_096,
  4_096,
);

function readSegments(line: string): readonly ShellSegment[] | undefined {
  if (line.length > MAX_CHARS || line.includes("`") || line.includes("$(")) return undefined;
  const segments: ShellSegment[] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endSegment = (then: string) => {
    endWord();
    if (words.length > 0 || then !== "\n") segments.push({ words, then });
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (char === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return undefined;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (char === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && j + 1 < line.length) word += line[++j];
        else word += line[j];
      }
      if (j >= line.length) return undefined;
      inWord = true;
      i = j;
    } else if (char === "\\" && i + 1 < line.length) {
      if (line[i + 1] !== "\n") word += line[i + 1];
      inWord = true;
      i++;
    } else if (char === "|" || char === "&" || char === ";" || char === "\n") {
      const pair = line.slice(i, i + 2);
      if (pair === "&&" || pair === "||") {
        endSegment(pair);
        i++;
      } else if (char === "&" && line[i + 1] === ">") {
        word += "&";
        inWord = true;
      } else if (char === "&" && line[i - 1] === ">") {
        word += "&";
        inWord = true;
      } else {
        endSegment(char);
      }
    } else if (char === " " || char === "\t") {
      endWord();
    } else if (char === "#" && !inWord) {
      // A comment runs to the end of its line.
      const end = line.indexOf("\n", i);
      i = (end === -1 ? line.length : end) - 1;
    } else {
      word += char;
      inWord = true;
    }
  }
  endSegment("");
  if (segments.at(-1)?.words.length === 0) segments.pop();
  return segments;
}

/** What one step of a command line runs: its program (the base name) and its arguments. */
export interface ShellStep {
  /** The program's base name (`/usr/bin/grep` → `grep`). */
  readonly program: string;
  readonly args: readonly string[];
}

// Programs that run the rest of their words as the command: their options, then the program.
const WRAPPERS = new Set(["env", "sudo", "nohup", "nice", "time", "command", "exec", "stdbuf"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The program a segment runs and its arguments: environment assignments (`LC_ALL=C`) and wrappers
 * (`env`, `sudo`, `nohup`, `time`, … with their options) before it are skipped, and the program
 * is named by its base name. `undefined` for a segment of assignments only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellStep } from "./shell_words.ts";
 * assert.deepEqual(shellStep({ words: ["LC_ALL=C", "/usr/bin/grep", "-n", "x", "a"], then: "" }), {
 *   program: "grep",
 *   args: ["-n", "x", "a"],
 * });
 * assert.deepEqual(shellStep({ words: ["sudo", "-u", "dev", "make"], then: "" }), { program: "make", args: [] });
 * ```
 */
export function shellStep(segment: ShellSegment): ShellStep | undefined {
  const words = segment.words;
  let at = 0;
  while (at < words.length) {
    const word = words[at] as string;
    if (ASSIGNMENT.test(word)) {
      at++;
    } else if (WRAPPERS.has(baseName(word))) {
      at++;
      // The wrapper's options, and the values of those that take one (`sudo -u dev`).
      while (at < words.length && (words[at] as string).startsWith("-")) {
        at += /^-[ugCDpt]$/.test(words[at] as string) ? 2 : 1;
      }
    } else break;
  }
  const program = words[at];
  return program === undefined
    ? undefined
    : { program: baseName(program), args: words.slice(at + 1) };
}

// A redirection, alone (`>`, `2>>`, `<`, `<<`, `&>`) or joined to what it names (`>out.txt`,
// `2>&1`, `<<EOF`); group 1 holds what it names when joined.
const REDIRECTION = /^(?:\d?[<>]{1,2}|&>>?)(.*)$/;

/**
 * A step's arguments without its redirections and what they name (a file, a stream, a
 * here-document's closing word).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { operandsOf } from "./shell_words.ts";
 * assert.deepEqual(operandsOf(["-n", "x", "a.py", ">", "out.txt", "2>&1"]), ["-n", "x", "a.py"]);
 * ```
 */
export function operandsOf(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const redirection = REDIRECTION.exec(args[index] as string);
    if (redirection === null) kept.push(args[index] as string);
    else if (redirection[1] === "") index++;
  }
  return kept;
}

// Programs whose output is content (files, logs, search hits) rather than their own report.
const CONTENT_PROGRAMS: ReadonlySet<string> = new Set([
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "nl",
  "sed",
  "awk",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "find",
  "ls",
  "tree",
  "wc",
  "diff",
  "git",
  "echo",
  "printf",
  "jq",
]);

// git's subcommands that do work rather than print content (a push's status is its work's).
const GIT_WORK: ReadonlySet<string> = new Set([
  "push",
  "pull",
  "fetch",
  "clone",
  "commit",
  "merge",
  "rebase",
  "cherry-pick",
  "revert",
  "am",
  "apply",
  "bisect",
  "stash",
  "checkout",
  "switch",
  "reset",
  "restore",
  "clean",
  "submodule",
]);

/**
 * Whether a step prints content (a file, a log, a listing, search hits) rather than a report of
 * work of its own: one of {@linkcode CONTENT_PROGRAMS}, but git doing work (`git push`).
 */
export function printsContent(step: ShellStep): boolean {
  return CONTENT_PROGRAMS.has(step.program) &&
    !(step.program === "git" && GIT_WORK.has(subcommandOf(step.args) ?? ""));
}

/** The first of a step's arguments that is no option: its subcommand (`plan` of `-chdir=a plan`). */
export function subcommandOf(args: readonly string[]): string | undefined {
  return args.find((arg) => !arg.startsWith("-"));
}

const SEARCHES = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack"]);

/** Whether a step searches (`grep`, `rg`, `git grep`, …): what it prints are hits, not its own words. */
export function isSearch(step: ShellStep): boolean {
  return SEARCHES.has(step.program) ||
    (step.program === "git" && subcommandOf(step.args) === "grep");
}

function baseName(word: string): string {
  return word.split("/").at(-1) as string;
}

/**
 * The steps a command line runs after its leading `cd DIR &&` (or `cd DIR;`) steps, which only
 * choose where the rest runs, each with the operator after it; the bodies of its here-documents
 * are data, not steps. `undefined` when the line cannot be read. `cd` holds the directories those
 * leading steps changed to.
 */
export function commandSteps(
  line: string,
): { readonly cd: readonly string[]; readonly steps: readonly ShellSegment[] } | undefined {
  const segments = shellSegments(withoutHereDocuments(line).trim());
  if (segments === undefined) return undefined;
  let start = 0;
  while (
    start < segments.length - 1 && segments[start]?.words[0] === "cd" &&
    (segments[start]?.then === "&&" || segments[start]?.then === ";")
  ) start++;
  return {
    cd: segments.slice(0, start).map((segment) => segment.words[1] ?? "~"),
    steps: segments.slice(start),
  };
}

/**
 * The directory a `cd` to `to` from `from` (absolute, or `undefined` when unknown) changes to:
 * `to` when absolute, else `to` from `from` when that is known; `undefined` when it cannot be told
 * (`cd ~/app`, `cd src` from an unknown directory).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changedDirectory } from "./shell_words.ts";
 * assert.equal(changedDirectory("/srv/app", "../lib"), "/srv/lib");
 * assert.equal(changedDirectory(undefined, "src"), undefined);
 * ```
 */
export function changedDirectory(from: string | undefined, to: string): string | undefined {
  if (to.startsWith("/")) return to;
  return from === undefined || to.startsWith("~") || to === "-"
    ? undefined
    : resolvedPath(to, from);
}

/**
 * `path` as seen from the absolute directory `directory`: itself when absolute or under the home
 * directory, else joined to it, `.` and `..` resolved.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolvedPath } from "./shell_words.ts";
 * assert.equal(resolvedPath("../lib/./a.py", "/srv/app/src"), "/srv/app/lib/a.py");
 * assert.equal(resolvedPath("/etc/hosts", "/srv/app"), "/etc/hosts");
 * ```
 */
export function resolvedPath(path: string, directory: string): string {
  if (path.startsWith("/") || path.startsWith("~")) return path;
  const parts = directory.split("/").filter((part) => part !== "");
  for (const part of path.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** The piece of work a command line is at (see {@linkcode commandFamily}), in its parts. */
export interface CommandWork {
  /** Its program and the first word after it that is not an option (`python3 report.py`). */
  readonly work: string;
  /** Its options that name an item, as written (`--region=south`), in order. */
  readonly items: readonly string[];
}

/**
 * Options whose value names the item a command's work is on (`--region=south`, `--shard=4`), not a
 * setting of how it runs (`--timeout=120`, `--tb=short`, `--format=json`): a retry changes a
 * setting; another item is other work.
 */
export const ITEM_OPTIONS: readonly string[] = [
  "region",
  "zone",
  "env",
  "environment",
  "stage",
  "target",
  "project",
  "service",
  "host",
  "cluster",
  "namespace",
  "shard",
  "tenant",
  "account",
  "branch",
  "package",
  "app",
  "site",
];
const ITEM_OPTION = new RegExp(`^--(?:${ITEM_OPTIONS.join("|")})=\\S+$`);

/**
 * The piece of work a command line is at, in its parts (see {@linkcode commandFamily});
 * `undefined` when the line cannot be read.
 */
export function commandWork(line: string): CommandWork | undefined {
  const first = commandSteps(line)?.steps[0];
  const step = first && shellStep(first);
  if (!step) return undefined;
  // Options, assignments and redirection operators are skipped (a redirected-to file is a subject).
  const subject = step.args.find((word) => !/^(?:-|[0-9]*[<>])/.test(word) && !word.includes("="));
  return {
    work: subject === undefined ? step.program : `${step.program} ${subject}`,
    items: step.args.filter((word) => ITEM_OPTION.test(word)),
  };
}

/**
 * The family of a command line: its program, the first word after it that is not an option
 * (`pytest`, `python reproduce.py`, `git commit`, `deploy.sh staging`) and its options that name an
 * item (`report.py --region=south`, see {@linkcode ITEM_OPTIONS}; a setting such as `--timeout=120`
 * is none), read past `cd DIR &&` steps, environment assignments and wrappers; `undefined` when the
 * line cannot be read. Retries of one piece of work usually share it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandFamily } from "./shell_words.ts";
 * assert.equal(commandFamily("cd /repo && git -c commit.gpgsign=false commit -am x"), "git commit");
 * assert.equal(commandFamily("FOO=1 python -m pytest tests -q 2>&1 | tail"), "python pytest");
 * assert.equal(commandFamily("python3 report.py --region=south --timeout=9"), "python3 report.py --region=south");
 * ```
 */
export function commandFamily(line: string): string | undefined {
  const work = commandWork(line);
  return work && [work.work, ...work.items].join(" ");
}

// A here-document's opening (`<< 'EOF'`, `<<-EOF`, `<<\MSG`, `<<'PY-SCRIPT'`), with its closing
// word (group 2 when quoted, 3 when not).
const HERE_DOCUMENT = /<<-?\s*(?:(['"])([^'"\n]+)\1|\\?([A-Za-z_][\w.-]*))/g;

/** `line` without the bodies of its here-documents (their lines are data, not commands). */
function withoutHereDocuments(line: string): string {
  if (!line.includes("<<")) return line;
  const kept: string[] = [];
  // The closing words of the here-documents opened and not yet closed, in order.
  const open: string[] = [];
  for (const text of line.split("\n")) {
    if (open.length > 0) {
      if (text.trim() === open[0]) open.shift();
      continue;
    }
    kept.push(text);
    for (const [, , quoted, plain] of text.matchAll(HERE_DOCUMENT)) {
      open.push((quoted ?? plain) as string);
    }
  }
  return kept.join("\n");
}
