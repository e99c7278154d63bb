/**
 * `deno run --allow-read --allow-run src/tooling/smoke.ts VCC [ARG...]`: checks a built vcc on the
 * machine it is built for, before it is published. `VCC [ARG...]` is the command that starts it: an
 * executable from `deno task compile`, or `deno run dist/vcc.js` for the bundle. It must
 *
 * - print this checkout's version for `--version`,
 * - print the same summary for `demo` as this checkout run from source,
 * - answer `initialize`, a `project` of a small window and `shutdown` sent to `serve` over
 *   standard input with the same lines as this checkout run from source, then exit with 0.
 *
 * Prints one line per check and exits with 1 at the first one that fails.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { SAMPLE_WINDOW } from "../hermes/round_trip.ts";
import { VERSION } from "../version.ts";

/** How long one run of the checked command may take before it is killed and the check fails. */
const RUN_TIMEOUT_MS = 60_000;

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** This checkout run from source, the reference every answer is compared with. */
const SOURCE = [Deno.execPath(), "run", "--quiet", "--no-prompt", MAIN];

/** The requests of the `serve` round trip, one JSON-RPC line each, ending with `shutdown`. */
const SERVE_INPUT = [
  { method: "initialize", params: { protocolVersion: 1 } },
  { method: "project", params: { messages: SAMPLE_WINDOW, session_id: "smoke" } },
  { method: "shutdown", params: {} },
].map((request, i) => `${JSON.stringify({ jsonrpc: "2.0", id: i + 1, ...request })}\n`).join("");

/** What one run printed and how it ended. */
interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

async function run(argv: readonly string[], input?: string): Promise<Run> {
  const [program, ...args] = argv;
  if (program === undefined) throw new Error("the command to check is empty");
  const signal = AbortSignal.timeout(RUN_TIMEOUT_MS);
  const child = new Deno.Command(program, {
    args,
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    signal,
  }).spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return {
    code,
    stdout: decoder.decode(stdout),
    stderr: decoder.decode(stderr),
    timedOut: signal.aborted,
  };
}

/** Why `got` did not end cleanly, or `undefined` when it did. */
function unclean(got: Run): string | undefined {
  if (got.timedOut) return `it did not finish within ${RUN_TIMEOUT_MS / 1000} s`;
  if (got.code !== 0) return `it exited with ${got.code}: ${got.stderr.trim()}`;
  if (got.stdout === "") return "it printed nothing";
  return undefined;
}

/** Why `got` is not a clean run with the same output as `want`, or `undefined` when it is. */
function compare(got: Run, want: Run): string | undefined {
  const problem = unclean(got);
  if (problem !== undefined) return problem;
  if (want.code !== 0) return `the source run failed (${want.code}): ${want.stderr.trim()}`;
  if (got.stdout === want.stdout) return undefined;
  const gotLines = got.stdout.split("\n");
  const wantLines = want.stdout.split("\n");
  const line = gotLines.findIndex((text, i) => text !== wantLines[i]);
  const at = line < 0 ? gotLines.length : line;
  return `its output differs from the source's at line ${at + 1}: ` +
    `${JSON.stringify(gotLines[at] ?? "")} where the source prints ${
      JSON.stringify(wantLines[at] ?? "")
    }`;
}

/** Why the `serve` answers are not the three successful responses, or `undefined`. */
function checkResponses(stdout: string): string | undefined {
  const lines = stdout.trimEnd().split("\n");
  if (lines.length !== 3) return `it answered ${lines.length} lines to 3 requests`;
  for (const [i, line] of lines.entries()) {
    let response: { id?: unknown; error?: { message?: unknown } };
    try {
      response = JSON.parse(line);
    } catch {
      return `answer ${i + 1} is not JSON: ${JSON.stringify(line.slice(0, 80))}`;
    }
    if (response.id !== i + 1) return `answer ${i + 1} has id ${response.id}`;
    if (response.error) return `request ${i + 1} failed: ${response.error.message}`;
  }
  return undefined;
}

/**
 * Runs every check on `vcc` (the command that starts it), reporting each through `log`; returns
 * whether all passed. Stops at the first failure.
 */
export async function smokeTest(
  vcc: readonly string[],
  log: (line: string) => void,
): Promise<boolean> {
  const checks: [string, () => Promise<string | undefined>][] = [
    ["--version", async () => {
      const got = await run([...vcc, "--version"]);
      const version = got.stdout.trim();
      return unclean(got) ??
        (version === VERSION ? undefined : `it prints ${version}, this checkout is ${VERSION}`);
    }],
    ["demo", async () => compare(await run([...vcc, "demo"]), await run([...SOURCE, "demo"]))],
    ["serve round trip", async () => {
      const got = await run([...vcc, "serve"], SERVE_INPUT);
      return compare(got, await run([...SOURCE, "serve"], SERVE_INPUT)) ??
        checkResponses(got.stdout);
    }],
  ];
  for (const [name, check] of checks) {
    const problem = await check().catch((error) => String(error));
    if (problem !== undefined) {
      log(`smoke: FAILED ${name}: ${problem}`);
      return false;
    }
    log(`smoke: ok ${name}`);
  }
  return true;
}

if (import.meta.main) {
  if (Deno.args.length === 0) {
    Deno.stderr.writeSync(new TextEncoder().encode("usage: smoke.ts VCC [ARG...]\n"));
    Deno.exit(2);
  }
  const passed = await smokeTest(
    Deno.args,
    (line) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`)),
  );
  Deno.exit(passed ? 0 : 1);
}
