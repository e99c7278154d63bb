import type { Usage } from "@optique/core";

/**
 * `see vcc SUBCOMMAND --help`, naming the subcommand `args` start with as the parser's `usage`
 * names its commands (just `vcc --help` when they name none): the line under a usage error.
 */
export function helpHint(programName: string, usage: Usage, args: readonly string[]): string {
  const path: string[] = [];
  let terms: Usage | undefined = usage;
  for (const arg of args) {
    terms = afterCommand(terms, arg);
    if (terms === undefined) break;
    path.push(arg);
  }
  return `see ${[programName, ...path, "--help"].join(" ")}`;
}

/** What follows command `name` where `terms` offer it as their next command word. */
function afterCommand(terms: Usage, name: string): Usage | undefined {
  for (const [index, term] of terms.entries()) {
    if (term.type === "command") return term.name === name ? terms.slice(index + 1) : undefined;
    if (term.type === "exclusive") {
      for (const branch of term.terms) {
        const rest = afterCommand(branch, name);
        if (rest !== undefined) return rest;
      }
    }
  }
  return undefined;
}
