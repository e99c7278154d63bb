import { writeAll } from "../wire/mod.ts";

/** Where the CLI writes: stdout for results, stderr for diagnostics. Tests swap these. */
export interface Output {
  /** Write text to standard output as is. */
  stdout(text: string): void;
  /** Write one diagnostic line to standard error. */
  stderr(line: string): void;
}

/** The process's real standard streams. */
export const processOutput: Output = {
  stdout: (text) => writeAll(Deno.stdout, text),
  stderr: (line) => writeAll(Deno.stderr, line.endsWith("\n") ? line : `${line}\n`),
};
