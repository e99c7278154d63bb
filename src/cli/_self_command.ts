import { fileURLToPath } from "node:url";
import { DENO_RUN_ARGS } from "../hermes/launch.ts";

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
