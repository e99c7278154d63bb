/**
 * Just enough shell reading to name the program a command line runs: its top-level segments (split
 * at unquoted `|`, `;`, `&`, `&&`, `||` and newlines) and each segment's words. Anything this
 * cannot read with certainty (command substitution, an unterminated quote) reads as unknown, and
 * callers then claim nothing.
 *
 * @module
 */

/** One top-level segment of a command line: its words (quotes removed) and the operator after it. */
export interface ShellSegment {
  readonly words: readonly string[];
  /** `|`, `;`, `&`, `&&`, `||`, `\n`, or "" for the last segment. */
  readonly then: string;
}

/** Longest command line read; longer ones read as unknown. */
const MAX_CHARS = 65_536;

/**
 * Splits a command line into top-level segments, or `undefined` when it cannot be read with
 * certainty (substitutions, unterminated quotes, very long lines).
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
export function shellSegments(line: string): ShellSegment[] | undefined {
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
    } else {
      word += char;
      inWord = true;
    }
  }
  endSegment("");
  if (segments.at(-1)?.words.length === 0) segments.pop();
  return segments;
}

/**
 * The family of a command line: its program and the first word after it that is not an option
 * (`pytest`, `python reproduce.py`, `git commit`, `./deploy.sh staging`), ignoring `cd DIR &&`
 * steps and environment assignments; `undefined` when the line cannot be read. Retries of one
 * piece of work usually share it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandFamily } from "./shell_words.ts";
 * assert.equal(commandFamily("cd /repo && git -c commit.gpgsign=false commit -am x"), "git commit");
 * assert.equal(commandFamily("FOO=1 python -m pytest tests -q 2>&1 | tail"), "python pytest");
 * ```
 */
export function commandFamily(line: string): string | undefined {
  const segments = shellSegments(line.trim());
  const words = segments?.find((segment) => segment.words[0] !== "cd")?.words;
  if (!words) return undefined;
  const start = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  if (start === -1) return undefined;
  const program = (words[start] as string).split("/").at(-1) as string;
  // Options, assignments and redirection operators are skipped (a redirected-to file is a subject).
  const subject = words.slice(start + 1).find((word) =>
    !/^(?:-|[0-9]*[<>])/.test(word) && !word.includes("=")
  );
  return subject === undefined ? program : `${program} ${subject}`;
}
