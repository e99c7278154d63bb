import { join } from "node:path";

/** Reads one environment variable; tests pass a map instead of the process environment. */
export type EnvLookup = (name: string) => string | undefined;

/** The process environment (needs `--allow-env`). */
export const processEnv: EnvLookup = (name: string): string | undefined => Deno.env.get(name);

/**
 * Where Hermes keeps its session store: `$HERMES_HOME/state.db`, else `~/.hermes/state.db`.
 * Returns undefined when neither `HERMES_HOME` nor `HOME` is set.
 */
export function defaultStateDbPath(env: EnvLookup = processEnv): string | undefined {
  const hermesHome = env("HERMES_HOME");
  if (hermesHome) return join(hermesHome, "state.db");
  const home = env("HOME") ?? env("USERPROFILE");
  return home ? join(home, ".hermes", "state.db") : undefined;
}
