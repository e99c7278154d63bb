import { dirname, join } from "node:path";
import { type EnvLookup, processEnv } from "../store/default_path.ts";

/**
 * The per-user directory bench results go to: `$XDG_CACHE_HOME/vcc`, else `~/.cache/vcc`.
 * Returns undefined when neither variable nor `HOME` is set.
 */
export function benchCacheDir(env: EnvLookup = processEnv): string | undefined {
  const xdg = env("XDG_CACHE_HOME");
  if (xdg) return join(xdg, "vcc");
  const home = env("HOME") ?? env("USERPROFILE");
  return home ? join(home, ".cache", "vcc") : undefined;
}

/**
 * Writes `text` to `path` readable by its owner only (mode 0600), creating missing directories
 * with mode 0700. Bench results can quote the user's sessions, so nothing else may read them.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(path, text, { mode: 0o600 });
  await Deno.chmod(path, 0o600);
}

/** Writes `value` as indented JSON with {@linkcode writePrivateFile}. */
export function writePrivateJson(path: string, value: unknown): Promise<void> {
  return writePrivateFile(path, `${JSON.stringify(value, null, 2)}\n`);
}
