/**
 * Prints a generated Hermes window ({@linkcode generateWindow}) as JSON on standard output, for
 * the Hermes integration tests, which write its rows into a real Hermes session store.
 *
 * Usage: `deno run tests/hermes_integration/generate_window.ts SEED TOKENS`
 *
 * @module
 */
import { generateWindow } from "../../src/sample/mod.ts";

const [seed, targetTokens] = Deno.args.map(Number);
if (Deno.args.length !== 2 || !Number.isInteger(seed) || !Number.isInteger(targetTokens)) {
  throw new Error(`Expected two integers, SEED and TOKENS; got ${JSON.stringify(Deno.args)}`);
}
const rows = generateWindow({ seed: seed as number, targetTokens: targetTokens as number });
await ReadableStream.from([new TextEncoder().encode(JSON.stringify(rows))]).pipeTo(
  Deno.stdout.writable,
);
