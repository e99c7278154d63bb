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
import { RuntimeFailure, UsageError } from "./errors.ts";
import { demoCommand } from "./demo.ts";
import { projectCommand } from "./project.ts";
import { sessionsCommand } from "./sessions.ts";
import { statsCommand } from "./stats.ts";
import { showCommand } from "./show.ts";
import { previewCommand } from "./preview.ts";
import { benchCommand } from "./bench.ts";
import { hermesCommand } from "./hermes.ts";
import { serveCommand } from "./serve.ts";

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

/** Parses `args`, runs the chosen subcommand and returns the exit code; user errors exit 2. */
export async function main(args: readonly string[], out: Output = processOutput): Promise<number> {
  try {
    const runner = run(commands, {
      programName: "vcc",
      args,
      help: "both",
      version: VERSION,
      completion: "both",
      errorExitCode: 2,
      stdout: (text) => out.stdout(`${text}\n`),
      stderr: (text) => out.stderr(text),
      onExit: (code) => {
        throw new ExitRequest(code);
      },
    });
    return await runner(out);
  } catch (error) {
    if (error instanceof ExitRequest) return error.code;
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
