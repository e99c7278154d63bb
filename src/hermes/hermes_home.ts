import { join } from "node:path";

/**
 * Hermes's home directory: `flag` (`--hermes-home`) when given, else `$HERMES_HOME`, else
 * `~/.hermes`, as Hermes itself resolves it.
 */
export function resolveHermesHome(
  flag: string | undefined,
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): string {
  if (flag) return flag;
  const fromEnv = env("HERMES_HOME");
  if (fromEnv) return fromEnv;
  const home = env("HOME") ?? env("USERPROFILE");
  if (!home) throw new Error("Cannot find Hermes's home: set HERMES_HOME or pass --hermes-home");
  return join(home, ".hermes");
}
