/**
 * Helpers shared by the CLI, store and bench tests: run `vcc` in process and capture its output,
 * build a sample store in a temporary directory, and fingerprint a file.
 *
 * @module
 */
import { main } from "../../src/cli/mod.ts";
import { writeSampleStore } from "../../src/store/fixture/mod.ts";
import type { SampleStore, SampleStoreOptions } from "../../src/store/fixture/mod.ts";

/** What one `vcc` invocation printed and returned. */
export interface VccRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `vcc args…` in this process with `XDG_CACHE_HOME` set to `cacheHome` when given. */
export async function runVcc(args: readonly string[], cacheHome?: string): Promise<VccRun> {
  let stdout = "";
  let stderr = "";
  const previous = Deno.env.get("XDG_CACHE_HOME");
  if (cacheHome !== undefined) Deno.env.set("XDG_CACHE_HOME", cacheHome);
  try {
    const code = await main(args, {
      stdout: (text) => void (stdout += text),
      stderr: (line) => void (stderr += line.endsWith("\n") ? line : `${line}\n`),
    });
    return { code, stdout, stderr };
  } finally {
    if (previous === undefined) Deno.env.delete("XDG_CACHE_HOME");
    else Deno.env.set("XDG_CACHE_HOME", previous);
  }
}

/**
 * Runs `vcc args…` in this process where the default store does not exist: `HERMES_HOME` names an
 * empty temporary directory, whatever this machine's Hermes holds.
 */
export async function runVccWithoutStore(args: readonly string[]): Promise<VccRun> {
  const previous = Deno.env.get("HERMES_HOME");
  Deno.env.set("HERMES_HOME", Deno.makeTempDirSync({ prefix: "vcc-home-" }));
  try {
    return await runVcc(args);
  } finally {
    if (previous === undefined) Deno.env.delete("HERMES_HOME");
    else Deno.env.set("HERMES_HOME", previous);
  }
}

/** A sample store written into a fresh temporary directory. */
export interface TempStore extends SampleStore {
  readonly dir: string;
  readonly path: string;
}

/** Writes a sample store (seed 1 unless given) into a new temporary directory. */
export function tempStore(options: Partial<SampleStoreOptions> = {}): TempStore {
  const dir = Deno.makeTempDirSync({ prefix: "vcc-store-" });
  const path = `${dir}/state.db`;
  return { dir, path, ...writeSampleStore(path, { seed: 1, ...options }) };
}

/** SHA-256 of a file's bytes, to show a command left it untouched. */
export async function fileSha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return new Uint8Array(digest).toHex();
}

/** Runs `vcc` and asserts, by hash, that the database file is unchanged afterwards. */
export async function runVccOnStore(
  dbPath: string,
  args: readonly string[],
  cacheHome?: string,
): Promise<VccRun> {
  const before = await fileSha256(dbPath);
  const run = await runVcc(args, cacheHome);
  const after = await fileSha256(dbPath);
  if (before !== after) throw new Error(`vcc ${args.join(" ")} changed ${dbPath}`);
  return run;
}
