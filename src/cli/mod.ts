/**
 * The vcc command line: one file per subcommand, each exporting an optique `command` parser whose
 * value is a {@linkcode Runner}.
 *
 * @module
 */
import { or } from "@optique/core";
import { run } from "@optique/run";
import { VERSION } from "../version.ts";
import { type Output, processOutput } from "./output.ts";
import { RuntimeFailure, UsageError } from "./_errors.ts";
import { helpHint } from "./_help_hint.ts";
import { demoCommand } from "./_demo.ts";
import { projectCommand } from "./_project.ts";
import { sessionsCommand } from "./_sessions.ts";
import { statsCommand } from "./_stats.ts";
import { showCommand } from "./_show.ts";
import { previewCommand } from "./_preview.ts";
import { benchCommand } from "./_bench.ts";
import { hermesCommand } from "./_hermes.ts";
import { serveCommand } from "./_serve.ts";

export type { Output } from "./output.ts";

const commands = or(
  projectCommand,
  demoCommand,
  sessionsCommand,
  statsCommand,
  showCommand,
  previewCommand,
  benchCommand,
  hermesCommand,
  serveCommand,
);

const USAGE_EXIT_CODE = 2;

/**
 * Parses `args`, runs the chosen subcommand and returns the exit code; user errors exit 2. A
 * command line that does not parse gets its one-line error and where to read the usage.
 */
export async function main(args: readonly string[], out: Output = processOutput): Promise<number> {
  try {
    const runner = run(commands, {
      programName: "vcc",
      args,
      help: "both",
      version: VERSION,
      completion: "both",
      // Bare `vcc` lists every command; a mistake in a command line names only its own help.
      aboveError: args.length === 0 ? "usage" : "none",
      errorExitCode: USAGE_EXIT_CODE,
      stdout: (text) => out.stdout(`${text}\n`),
      stderr: (text) => out.stderr(text.replace(/^Error: /, "vcc: ")),
      onExit: (code) => {
        throw new ExitRequest(code);
      },
    });
    return await runner(out);
  } catch (error) {
    if (error instanceof ExitRequest) {
      if (error.code === USAGE_EXIT_CODE) out.stderr(helpHint("vcc", commands.usage, args));
      return error.code;
    }
    if (error instanceof UsageError || error instanceof RuntimeFailure) {
      out.stderr(`vcc: ${error.message}`);
      return error.exitCode;
    }
    throw error;
  }
}

/** Thrown from optique's `onExit` (help, version, parse errors) so `main` returns the code. */
class ExitRequest extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}
