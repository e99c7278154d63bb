/**
 * The deliberate mistakes `deno task mutants` makes in a copy of the source to see the tests fail
 * (see `mutation_check.ts`). Each edit names the exact text it replaces, which must occur once in
 * its file: a refactor that changes that text makes the check fail, saying which mutant to update,
 * rather than quietly test the unmutated code.
 *
 * @module
 */
import { join } from "node:path";

/** One replacement in one file, relative to the checkout's root. */
export interface Edit {
  readonly file: string;
  readonly find: string;
  readonly replace: string;
}

/** A deliberate mistake: what it breaks, in words, and the edits that make it. */
export interface Mutant {
  readonly name: string;
  readonly edits: readonly Edit[];
}

const SECTIONS_ROOM = {
  file: "src/core/budget.ts",
  find: "const room = Math.max(0, budgetChars - headerSize);",
  replace: "const room = 3 * Math.max(0, budgetChars - headerSize);",
};

/** Every mutant the tests must kill. */
export const MUTANTS: readonly Mutant[] = [
  {
    name: "the sections' room tripled (the final cut then trims the body to the budget)",
    edits: [SECTIONS_ROOM],
  },
  {
    name: "the sections' room tripled and the final cut disabled",
    edits: [SECTIONS_ROOM, {
      file: "src/core/project.ts",
      find: "const body = withinBudget(whole, budgetChars);",
      replace: "const body = whole;",
    }],
  },
  {
    name: "a failed outcome rendered as 'succeeded'",
    edits: [{
      file: "src/core/outcome_words.ts",
      find: 'words: (_state, exit) => (exit === "" ? "failed (error)" : `failed${exit}`),',
      replace: 'words: (_state, exit) => (exit === "" ? "succeeded (error)" : `succeeded${exit}`),',
    }],
  },
  {
    name: "a command's merge key (callKey) its program alone, its arguments ignored",
    edits: [{
      file: "src/core/sections/call_label.ts",
      find: "isCommandName(name) ? `cmd ${name.subject}`",
      replace: 'isCommandName(name) ? `cmd ${name.subject.split(" ")[0]}`',
    }],
  },
  {
    name: "a command's identity (commandIdentity) its program alone, its arguments ignored",
    edits: [{
      file: "src/core/command.ts",
      find: "return `${tool}\\u0000${text}\\u0000${workdir}`;",
      replace: 'return `${tool}\\u0000${text.split(" ")[0]}\\u0000${workdir}`;',
    }],
  },
];

/**
 * The text of each file `mutant` edits in the checkout (or copy) at `root`, by path relative to
 * it, once the edits are made; throws, naming the mutant and the file, when an edit's text does
 * not occur exactly once.
 */
export async function mutatedFiles(root: string, mutant: Mutant): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const { file, find, replace } of mutant.edits) {
    const text = files.get(file) ?? await Deno.readTextFile(join(root, file));
    const count = text.split(find).length - 1;
    if (count !== 1) {
      throw new Error(
        `Mutant "${mutant.name}" expects ${JSON.stringify(find)} once in ${file}, ` +
          `found it ${count} times; update it in src/tooling/mutants.ts`,
      );
    }
    files.set(file, text.replace(find, () => replace));
  }
  return files;
}
