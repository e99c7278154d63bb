/**
 * The files a command line changes where they are, read from its words: what `sed -i` or
 * `perl -i` edit in place and what `rm` removes, named as the line names them. A file a command
 * creates or writes whole (a redirection, `tee`, `cp`) is not among them: the command's own line
 * shows it, and most are the session's scratch files. A line the shell reader cannot follow, a
 * here-document's body and a path with a glob or a variable name nothing; a path in the home
 * directory is named as written (`~/.cache/x`).
 *
 * @module
 */
import {
  changedDirectory,
  commandSteps,
  operandsOf,
  resolvedPath,
  shellStep,
} from "./shell_words.ts";

/** What a command line did to a file: edited it in place, or removed it. */
export type CommandFileChange = "modified" | "deleted";

/** One file a command line changed. */
export interface CommandFile {
  readonly path: string;
  readonly change: CommandFileChange;
}

// A word whose file the line does not name: a glob, a variable, a home directory alone or another
// user's (`~/.cache/x` names the session's own home's file, as written).
const UNNAMED = /[*?[\]${}]|^~(?!\/)/;
/** Options that edit in place: sed's `-i`/`--in-place` (with a backup suffix), perl's `-i`, `-pi`. */
export const IN_PLACE: Readonly<Record<string, RegExp>> = {
  sed: /^(?:-[a-zA-Z]*i\S*|--in-place\S*)$/,
  perl: /^-[a-zA-Z]*i\S*$/,
};
// The programs whose changes are read, as words of a line.
const REMOVER = "rm";
const PROGRAMS = new RegExp(`\\b(?:${[...Object.keys(IN_PLACE), REMOVER].join("|")})\\b`);
// Options of sed and perl whose value is the script (then no other word of the line is it).
const SCRIPT_OPTIONS = /^-(?:e|f|-expression|-file)$/;

/**
 * The files `command` edits in place or removes, in the order its words name them (a file once per
 * change), as the line names them, from the directory a `cd` before them changed to when the line
 * names it absolutely.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandFiles } from "./command_files.ts";
 * assert.deepEqual(commandFiles("cd /repo && sed -i 's/a/b/' src/x.py && cd ~ && rm -f old.log"), [
 *   { path: "/repo/src/x.py", change: "modified" },
 *   { path: "old.log", change: "deleted" },
 * ]);
 * assert.deepEqual(commandFiles("sed -n 1,20p src/x.py > out.txt"), []);
 * ```
 */
export function commandFiles(command: string): CommandFile[] {
  // A line that names none of the programs read here changes no file: it is read no further.
  if (!PROGRAMS.test(command)) return [];
  const read = commandSteps(command);
  const found: CommandFile[] = [];
  // The absolute directory the step runs in, while the line's `cd` steps name one.
  let directory = read?.cd.reduce(changedDirectory, undefined as string | undefined);
  const add = (named: string, change: CommandFileChange) => {
    if (named === "" || UNNAMED.test(named)) return;
    const path = directory === undefined ? named : resolvedPath(named, directory);
    if (!found.some((file) => file.path === path && file.change === change)) {
      found.push({ path, change });
    }
  };
  for (const segment of read?.steps ?? []) {
    const step = shellStep(segment);
    if (step === undefined) continue;
    if (step.program === "cd") {
      directory = changedDirectory(directory, step.args[0] ?? "~");
      continue;
    }
    const args = operandsOf(step.args);
    const plain = args.filter((word) => !word.startsWith("-"));
    const inPlace = IN_PLACE[step.program];
    if (inPlace !== undefined && args.some((word) => inPlace.test(word))) {
      // The first plain word is the script, unless an option gave it.
      const scriptGiven = args.some((word) => SCRIPT_OPTIONS.test(word));
      const files = scriptGiven
        ? plain.filter((word) => !SCRIPT_OPTIONS.test(args[args.indexOf(word) - 1] ?? ""))
        : plain.slice(1);
      for (const file of files) add(file, "modified");
    } else if (step.program === REMOVER) {
      for (const file of plain) add(file, "deleted");
    }
  }
  return found;
}
