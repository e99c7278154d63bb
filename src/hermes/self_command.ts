import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { StoreSource } from "../wire/mod.ts";
import { DENO_RUN_ARGS } from "./launch.ts";

/** The argv prefix that runs a `.ts` or `.js` entry point with Deno. */
export function scriptRunner(): string[] {
  return [Deno.build.standalone ? "deno" : Deno.execPath(), ...DENO_RUN_ARGS];
}

/**
 * The argv that runs this vcc (subcommand not included): the executable itself when compiled,
 * else `deno run` of the entry module, which is `main.ts` from a checkout or the bundle.
 */
export function selfCommand(): string[] {
  if (Deno.build.standalone) return [Deno.execPath()];
  return [...scriptRunner(), fileURLToPath(Deno.mainModule)];
}

/**
 * The terminal command that prints the stored rows around message `N` of a store's session (the
 * word `N` stands for the number), for a Hermes that refuses `session_search` on the agent's own
 * session.
 */
export function showCommand(store: StoreSource): string {
  // The command runs wherever the agent's terminal is: the store is named from the root.
  const db = resolve(store.path);
  const show = ["show", store.sessionId, "--around", "N", "--window", "1", "--db", db];
  return shellLine([...selfCommand(), ...show]);
}

// Words a POSIX shell reads as themselves.
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/**
 * `argv` as one POSIX shell command line: each word that is not plain in single quotes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellLine } from "./self_command.ts";
 * assert.equal(shellLine(["vcc", "show", "it's here"]), "vcc show 'it'\"'\"'s here'");
 * ```
 */
export function shellLine(argv: readonly string[]): string {
  return argv.map((word) => PLAIN_WORD.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`)
    .join(" ");
}
