import type { Output } from "./output.ts";

/** A parsed subcommand, ready to run: resolves to the process exit code. */
export type Runner = (out: Output) => Promise<number>;
