/**
 * How the Hermes plugin starts vcc, read from `plugin/launch.json`, the file the plugin's locator
 * (`plugin/binary.py`) reads too, so vcc records a command the plugin runs the way it expects.
 *
 * @module
 */
// Imported as text, as the plugin's file list imports it: Deno loads one file with one type.
import launchJson from "../../plugin/launch.json" with { type: "text" };

const launch = JSON.parse(launchJson) as {
  readonly deno_run: readonly string[];
  readonly recorded_command_file: string;
};

/** The `deno` arguments before the entry point that run a `.ts` or `.js` vcc. */
export const DENO_RUN_ARGS: readonly string[] = launch.deno_run;

/** File in the plugin directory recording how to run this vcc; the plugin's locator reads it. */
export const RECORDED_COMMAND_FILE: string = launch.recorded_command_file;
