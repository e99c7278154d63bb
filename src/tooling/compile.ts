/**
 * `deno task compile [--target TRIPLE] [--output PATH]`: builds the single vcc executable with the
 * permissions vcc needs. `deno compile` starts from Deno's runtime (`denort`), which it downloads
 * unless `DENORT_BIN` names one or the `$DENO_DIR/dl` cache holds it; when none of these works this
 * says so in one line instead of a download error.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

/** What the executable may do: read and write files, read the environment, start itself as
 * `vcc serve` (bench, doctor) and reach the local model server of the head-to-head bench. */
const PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-net",
];

/** Where `deno compile` looks for a cached runtime for `target`. */
function cachedRuntime(denoDir: string, version: string, target: string): string {
  return join(denoDir, "dl", "release", `v${version}`, `denort-${target}.zip`);
}

/** Why compiling cannot start, or `undefined` when a runtime is at hand or may be downloaded. */
function missingRuntime(env: (name: string) => string | undefined): string | undefined {
  const denort = env("DENORT_BIN");
  if (denort !== undefined && !existsSync(denort)) {
    return `DENORT_BIN names ${denort}, which does not exist`;
  }
  return undefined;
}

const DOWNLOAD_FAILED = /error sending request|dns error|Connect|Setting up base binary/;

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: { target: { type: "string" }, output: { type: "string", default: "dist/vcc" } },
  });
  const target = values.target ?? Deno.build.target;
  const version = Deno.version.deno;
  const problem = missingRuntime((name) => Deno.env.get(name));
  if (problem) return fail(problem);
  const denoDir = Deno.env.get("DENO_DIR") ?? join(homedir(), ".cache", "deno");
  const args = ["compile", ...PERMISSIONS, "--target", target, "-o", values.output, "main.ts"];
  const child = new Deno.Command(Deno.execPath(), { args, stdout: "inherit", stderr: "piped" })
    .spawn();
  const { code, stderr } = await child.output();
  const message = new TextDecoder().decode(stderr);
  if (code === 0) {
    Deno.stderr.writeSync(new TextEncoder().encode(message));
    return 0;
  }
  if (DOWNLOAD_FAILED.test(message)) {
    return fail(
      `Deno's runtime for ${target} (denort ${version}) could not be downloaded; set DENORT_BIN to a ` +
        `denort binary or put denort-${target}.zip at ${cachedRuntime(denoDir, version, target)}`,
    );
  }
  Deno.stderr.writeSync(new TextEncoder().encode(message));
  return code;
}

function fail(line: string): number {
  Deno.stderr.writeSync(new TextEncoder().encode(`vcc compile: ${line}\n`));
  return 1;
}

if (import.meta.main) Deno.exit(await main());
