/**
 * How a command line is shortened to fit a line: by its words, keeping first what tells a reader
 * which command it is — the programs it runs and what they work on — and dropping options before
 * anything else. A long word is shortened inside, never dropped for being long; an option or a
 * short word is shown whole or not at all.
 *
 * @module
 */
import { IN_PLACE } from "./command_files.ts";
import { cutMiddle, joinGaps } from "./excerpt.ts";
import { ROOT_MARK } from "./root.ts";

/** What stands for words left out. */
export const GAP = "…";
// Words longer than this share of the width are shortened inside first, so the program and what it
// works on always fit.
const LONG_WORD_SHARE = 0.6;
const LEAST_LONG_WORD = 14;
// A word that is a path (no quotes, no spaces): shortened by its directories.
const PATH_WORD = /^[\w.~@%+,:=\/-]+$/;
// The least of a word worth showing shortened.
const LEAST_PART = 8;

// Operators that end a step; the word after one starts the next step.
const STEP_OPERATORS = new Set(["&&", "||", "|", ";", "&"]);
// Redirections: the file after one is what the step writes or reads; one that only joins or
// discards output says nothing of the command.
const REDIRECTION = /^(?:\d?>>?|<|&>)$/;
const NOISE_REDIRECTION = /^(?:\d?>&\d|&?\d?>>?\/dev\/null)$/;
// What opens a here-document; its delimiter follows.
const HERE_DOCUMENT = /^<<-?$/;
// A here-document folded onto one line: what opens it, its body, its closing word, what follows.
const HERE_DOCUMENT_LINE = /^(.*?<<-?\s*(['"]?)([A-Za-z_]\w*)\2) (.+) \3((?:\s.*)?)$/;
// A setting of the environment for the program after it (`RUSTFLAGS="-C opt-level=3" cargo …`).
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
// Interpreters, and their options whose value is what they run (`python -m pytest`, `bash -c '…'`).
const INTERPRETER = /^(?:python[\d.]*|pypy3?|bash|sh|zsh|node|ruby|perl)$/;
const RUNS_ITS_VALUE = /^-[mc]$/;
// A word after an option that is its value (unless an option itself): short, or a setting
// (`-type f`, `-n 5`, `-c a=b`, `-p no:cacheprovider`).
const OPTION_VALUE = /^(?:\d+|\w{1,2}|[^'"]*=.*|[\w-]+:[\w-]+)$/;
// An option's value that names nothing the program works on: a switch's state, a count, a size or
// a duration (`-DfailIfNoTests=false`, `-count=1`, `--since=10m`).
const UNNAMING_VALUE = /^(?:true|false|yes|no|on|off|\d+(?:\.\d+)?[a-zA-Z%]{0,3})$/i;

// Options that say what a program does to what it works on, shown as part of what it works on:
// editing in place (`sed -i`, `perl -pi`), removing recursively or by force (`rm -rf`), forcing or
// discarding in git (`push -f`, `reset --hard`, `commit --amend`, `branch -D`), or touching only
// its index (`restore --staged`, `rm --cached`, `reset --soft`), without which the line reads as
// one that discards the work.
const MODE_OPTIONS: Readonly<Record<string, RegExp>> = {
  ...IN_PLACE,
  rm: /^-[a-zA-Z]+$/,
  git: /^(?:-f|--force(?:-with-lease)?|--hard|--soft|--staged|--cached|--amend|-D)$/,
};

/** One unit the display keeps or drops whole: words that only make sense together. */
interface Unit {
  readonly text: string;
  /** Lower is kept first. */
  readonly rank: number;
  /** Where it starts in the line. */
  readonly start: number;
  /**
   * The unit that starts its step (with the operator before it): shown whenever any unit of the
   * step is, so no kept word reads as part of the step before it.
   */
  readonly head: number;
}

// What each rank keeps: 0 the first step's program, 1 what it works on first (its subcommand,
// script or pattern), 2 later steps' programs (every program the line runs: the one whose status
// the line reports among them), 3 what later steps work on first (`git add a.py && git commit`),
// 4 the first program's other arguments, files redirected to and the last word, 5 the directory a
// leading `cd` changes to and later steps' other arguments, 6 options whose value names what the
// program works on (`-Dtest=OrderTotalsTest`, `-target=module.db`, `-n payments`), 7 the other
// options.
const PROGRAM = 0;
const SUBJECT = 1;
const LATER_PROGRAM = 2;
const LATER_SUBJECT = 3;
const ARGUMENT = 4;
const LATER = 5;
const NAMING_OPTION = 6;
const OPTION = 7;

/**
 * `text` (one sanitised line) in at most `width` characters: whole when it fits, else the units
 * other than options kept in rank order while they fit (each with the word that starts its step),
 * in their places, each run of dropped ones shown as `…`. With `keep` (an offset into `text`:
 * where it differs from another command that would show the same), the unit there is kept after
 * the program, shortened around that place.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shortenCommand } from "./command_display.ts";
 * assert.equal(
 *   shortenCommand("docker compose -f deploy/compose.e2e.yml run --rm --service-ports playwright npx playwright test --project=chromium", 60),
 *   "docker compose … deploy/compose.e2e.yml run … playwright …",
 * );
 * assert.equal(shortenCommand("cd /tmp/x/proj && python3 -m pytest -q tests/test_stats.py", 50), "… && python3 -m pytest … tests/test_stats.py");
 * ```
 */
export function shortenCommand(text: string, width: number, keep?: number): string {
  if (text.length <= width) return text;
  const longest = Math.max(LEAST_LONG_WORD, Math.floor(width * LONG_WORD_SHARE));
  const read = unitsOf(text);
  const units: Unit[] = read.map((unit) => {
    const around = keep === undefined ? -1 : keep - unit.start;
    return around >= 0 && around < unit.text.length
      ? { ...unit, text: shortenWord(unit.text, longest, around), rank: SUBJECT }
      // An option is shown whole or not at all, but for the one that ends the line, which often
      // tells it apart.
      : isOption(unit.text) && unit !== read.at(-1)
      ? unit
      : { ...unit, text: shortenWord(unit.text, longest) };
  });
  if (units.length === 0) return cutMiddle(text, width);
  const kept = new Set<number>();
  const order = units.map((_, index) => index).sort((a, b) =>
    (units[a] as Unit).rank - (units[b] as Unit).rank || a - b
  );
  for (const index of order) {
    // Options only make a shortened line longer, not clearer.
    if ((units[index] as Unit).rank === OPTION) break;
    const added = [index, (units[index] as Unit).head].filter((unit) => !kept.has(unit));
    for (const unit of added) kept.add(unit);
    if (render(units, kept).length > width) { for (const unit of added) kept.delete(unit); }
  }
  // The first unit left out whose step is shown takes what room is left, shortened inside while
  // it keeps half its characters; an option, or a word too short to shorten, is shown whole or
  // not at all (`--pro…um`, `'CsvW…r'`, `-p no…er` name nothing).
  const first = order.find((index) =>
    !kept.has(index) && (units[index] as Unit).rank < NAMING_OPTION &&
    (index === (units[index] as Unit).head || kept.has((units[index] as Unit).head))
  );
  if (first !== undefined) {
    const whole = (units[first] as Unit).text;
    const written = (read[first] as Unit).text;
    const least = written.length < LEAST_LONG_WORD || isOption(written)
      ? whole.length
      : Math.max(LEAST_PART, Math.ceil(written.length / 2));
    kept.add(first);
    for (let room = width - render(units, kept).length + whole.length; room >= least; room--) {
      units[first] = { ...(units[first] as Unit), text: shortenWord(whole, room) };
      if (render(units, kept).length <= width) break;
    }
    if (render(units, kept).length > width) kept.delete(first);
  }
  const shown = render(units, kept);
  return kept.size === 0 || shown.length > width ? cutMiddle(text, width) : joinGaps(shown);
}

/** Whether a unit is an option (after the operator that starts its step, if any). */
function isOption(unit: string): boolean {
  return OPTION_UNIT.test(unit);
}
const OPTION_UNIT = /^(?:[|&;]+ )*-/;

/** The kept units in their places, each run of dropped ones as one gap. */
function render(units: readonly Unit[], kept: ReadonlySet<number>): string {
  const parts: string[] = [];
  units.forEach((unit, index) => {
    if (kept.has(index)) parts.push(unit.text);
    else if (parts.at(-1) !== GAP) parts.push(GAP);
  });
  return parts.join(" ");
}

/**
 * The units of a command line: its words (a quoted span is one word), an operator joined to the
 * word after it, `cd` to its directory, a redirection to its file, an option to the number after it
 * and `-m`/`-c` to the module or code they run, each ranked by what it is. The main step is the
 * first that is not a leading `cd`; the last unit ranks with the main step's subject (how a line
 * ends often tells it apart), or, when it is an option, with later steps' arguments if its value
 * names something and with the options that do if not; a here-document's opening or a redirection
 * that only discards output keeps its rank.
 */
function unitsOf(text: string): Unit[] {
  const here = HERE_DOCUMENT_LINE.exec(text);
  if (!here) return wordUnits(text);
  // A here-document's body is one unit in its place, shown from its start as room allows; its
  // closing word says little.
  const opening = here[1] as string;
  const body = here[4] as string;
  const units = wordUnits(`${opening}${here[5]}`);
  const at = wordUnits(opening).length;
  // What follows the closing word starts this much further into the line than it is read, two
  // units later.
  const shift = text.length - (here[5] as string).length - opening.length;
  const head = units[at - 1]?.head ?? at;
  return [
    ...units.slice(0, at),
    { text: body, rank: LATER, start: opening.length + 1, head },
    { text: here[3] as string, rank: OPTION, start: opening.length + body.length + 2, head },
    ...units.slice(at).map((unit) => ({
      ...unit,
      start: unit.start + shift,
      head: unit.head < at ? unit.head : unit.head + 2,
    })),
  ];
}

/** The units of a command line read word by word (see {@linkcode unitsOf}). */
function wordUnits(text: string): Unit[] {
  const read = wordsOf(text);
  const words = read.map((word) => word.text);
  const units: (Unit & { readonly option: boolean })[] = [];
  let operatorsStart = 0;
  let step = 0;
  let position = 0;
  let mainStep: number | undefined;
  let hasSubject = false;
  // Whether the step being read (other than the main one) has had its subject.
  let stepSubject = false;
  let operators = "";
  let delimiter: string | undefined;
  let program = "";
  let head = 0;
  // The setting that starts the step being read, when one carries its operator.
  let stepHead: number | undefined;
  // Whether the main step edits files in place: then its files, not its script, are its subject.
  let inPlace = false;
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    if (STEP_OPERATORS.has(word)) {
      if (operators === "") operatorsStart = (read[index] as Word).start;
      operators = operators === "" ? word : `${operators} ${word}`;
      step++;
      position = 0;
      stepSubject = false;
      continue;
    }
    if (position === 0 && mainStep === undefined && word !== "cd") mainStep = step;
    const main = step === mainStep;
    const next = words[index + 1];
    const start = operators === "" ? (read[index] as Word).start : operatorsStart;
    if (
      position === 0 && ASSIGNMENT.test(word) && next !== undefined && !STEP_OPERATORS.has(next)
    ) {
      // Settings before a program (`GIT_EDITOR=true git rebase`): the word after them is the
      // step's program; they are shown only with it, and go before its arguments. The operator
      // before them starts the step on its own.
      if (operators !== "") {
        stepHead = units.length;
        units.push({ text: operators, rank: LATER, start, option: false, head: stepHead });
        operators = "";
      }
      let settings = 1;
      while (ASSIGNMENT.test(words[index + settings] ?? "")) settings++;
      units.push({
        text: word,
        rank: LATER,
        start: (read[index] as Word).start,
        option: false,
        head: units.length + settings,
      });
      continue;
    }
    let unit = word;
    let rank: number;
    let option = false;
    if (position === 0 && word === "cd" && next !== undefined) {
      // Changing to the projection's root (`cd …`) is short and says where the rest runs: it ranks
      // with later steps' programs, before them by its place; another directory goes after the
      // program's arguments.
      rank = next === ROOT_MARK ? LATER_PROGRAM : LATER;
      unit = `cd ${words[++index]}`;
    } else if (HERE_DOCUMENT.test(word) && next !== undefined) {
      delimiter = next.replace(/^(['"])(.*)\1$/, "$2");
      unit = `${word} ${words[++index]}`;
      rank = OPTION;
      option = true;
    } else if (word === GAP || word === delimiter) {
      rank = OPTION;
      option = true;
    } else if (NOISE_REDIRECTION.test(word)) {
      rank = OPTION;
      option = true;
    } else if (REDIRECTION.test(word) && next !== undefined) {
      unit = `${word} ${words[++index]}`;
      rank = ARGUMENT;
    } else if (position === 0) {
      rank = main ? PROGRAM : LATER_PROGRAM;
      program = word.split("/").at(-1) as string;
    } else if (RUNS_ITS_VALUE.test(word) && INTERPRETER.test(program) && next !== undefined) {
      unit = `${word} ${words[++index]}`;
      rank = main ? SUBJECT : LATER_SUBJECT;
      if (main) hasSubject = true;
      else stepSubject = true;
    } else if (word.startsWith("-") && MODE_OPTIONS[program]?.test(word)) {
      rank = main ? SUBJECT : LATER_SUBJECT;
      if (main && IN_PLACE[program]?.test(word)) inPlace = true;
    } else if (word.startsWith("-")) {
      if (next !== undefined && !next.startsWith("-") && OPTION_VALUE.test(next)) {
        unit = `${word} ${words[++index]}`;
      }
      const value = optionValue(unit);
      rank = value === undefined || UNNAMING_VALUE.test(value) ? OPTION : NAMING_OPTION;
      option = true;
    } else if (main && inPlace && !hasSubject) {
      // The script of an in-place edit says how; the files after it are what it works on.
      rank = ARGUMENT;
      inPlace = false;
    } else if (main && !hasSubject) {
      rank = SUBJECT;
      hasSubject = true;
    } else if (!main && !stepSubject && mainStep !== undefined) {
      rank = LATER_SUBJECT;
      stepSubject = true;
    } else {
      rank = main ? ARGUMENT : LATER;
    }
    if (position === 0) head = stepHead ?? units.length;
    stepHead = undefined;
    units.push({
      text: operators === "" ? unit : `${operators} ${unit}`,
      rank,
      start,
      option,
      head,
    });
    operators = "";
    position++;
  }
  const last = units.at(-1);
  if (last !== undefined) {
    units[units.length - 1] = {
      text: operators === "" ? last.text : `${last.text} ${operators}`,
      // An option that ends the line often tells it apart (`--region=north`, `--dry-run`): kept
      // when room is, a switch after the options that name something.
      rank: !last.option
        ? Math.min(last.rank, SUBJECT)
        : last.text.startsWith("-")
        ? last.rank === NAMING_OPTION ? LATER : NAMING_OPTION
        : last.rank,
      start: last.start,
      option: last.option,
      head: last.head,
    };
  }
  return units;
}

/** The value an option unit gives (`--shard=4`, `-n 5`); `undefined` for a switch (`-q`). */
function optionValue(unit: string): string | undefined {
  const space = unit.indexOf(" ");
  if (space !== -1) return unit.slice(space + 1);
  const equals = unit.indexOf("=");
  return equals === -1 ? undefined : unit.slice(equals + 1);
}

/** A word of a line, and where it starts. */
interface Word {
  readonly text: string;
  readonly start: number;
}

/** The words of a line, split at spaces outside quotes. */
function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  let word = "";
  let start = 0;
  let quote = "";
  let at = 0;
  for (const char of text) {
    if (quote !== "") {
      word += char;
      if (char === quote) quote = "";
    } else if (char === " ") {
      if (word !== "") words.push({ text: word, start });
      word = "";
    } else {
      if (word === "") start = at;
      word += char;
      if (char === "'" || char === '"') quote = char;
    }
    at += char.length;
  }
  if (word !== "") words.push({ text: word, start });
  return words;
}

/**
 * A word in at most `longest` characters: a path keeps its first and last parts (`/home/…/a.py`),
 * anything else its start and end; with `around` (an offset into it), its start, the part around
 * that offset and its end, unless start or end show that place already.
 */
function shortenWord(word: string, longest: number, around?: number): string {
  if (word.length <= longest) return word;
  const tail = Math.floor((longest - 1) * 0.4);
  const head = longest - 1 - tail;
  if (around !== undefined && around >= head && around < word.length - tail) {
    const room = longest - 2;
    const middle = Math.ceil(room / 2);
    const ends = room - middle;
    const first = Math.floor(ends / 2);
    const last = ends - first;
    const from = Math.min(
      Math.max(first, around - Math.floor(middle / 3)),
      word.length - last - middle,
    );
    return [
      piece(word, 0, first),
      piece(word, from, from + middle),
      piece(word, word.length - last, word.length),
    ].join(GAP);
  }
  const slash = word.indexOf("/", 1);
  const lastSlash = word.lastIndexOf("/");
  if (PATH_WORD.test(word) && slash !== -1 && lastSlash > slash) {
    const path = `${word.slice(0, slash + 1)}${GAP}${word.slice(lastSlash)}`;
    if (path.length <= longest) return path;
  }
  return `${piece(word, 0, head)}${GAP}${piece(word, word.length - tail, word.length)}`;
}

/** `word` from `start` to `end`, without half of a character written as a surrogate pair. */
function piece(word: string, start: number, end: number): string {
  return word.slice(start, end).replace(/^[\udc00-\udfff]/, "").replace(/[\ud800-\udbff]$/, "");
}
