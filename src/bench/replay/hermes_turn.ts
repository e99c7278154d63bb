/**
 * One user turn through the real Hermes agent loop: `hermes chat -Q --yolo -q REQUEST` for the
 * first, `hermes chat -Q --yolo --resume SESSION -q REQUEST` for each later one (a new process
 * that loads the session's active rows from state.db, as a user's next message does).
 *
 * @module
 */

/** How one `hermes chat` process ended. */
export interface TurnOutcome {
  /** The exit code; `undefined` when the bench stopped it at its time limit. */
  readonly exitCode: number | undefined;
  /** The session id Hermes printed (`session_id: …`). */
  readonly sessionId: string | undefined;
  readonly seconds: number;
  /** The end of what it printed, for a failure's report. */
  readonly tail: string;
}

const SESSION_ID = /session_id:\s*(\S+)/;
const TAIL_CHARS = 2_000;

/** Runs one turn of `request` in `cwd`, resuming `sessionId` when given, within `timeoutMs`. */
export async function runHermesTurn(
  hermes: string,
  request: string,
  options: {
    readonly cwd: string;
    readonly env: Record<string, string>;
    readonly sessionId?: string | undefined;
    readonly timeoutMs: number;
  },
): Promise<TurnOutcome> {
  const resume = options.sessionId === undefined ? [] : ["--resume", options.sessionId];
  const started = performance.now();
  const child = new Deno.Command(hermes, {
    args: ["chat", "-Q", "--yolo", ...resume, "-q", request],
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGTERM");
    } catch {
      // It has ended already.
    }
  }, options.timeoutMs);
  const { code, stdout, stderr } = await child.output();
  clearTimeout(timer);
  const printed = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  return {
    exitCode: timedOut ? undefined : code,
    sessionId: SESSION_ID.exec(printed)?.[1] ?? options.sessionId,
    seconds: (performance.now() - started) / 1000,
    tail: printed.slice(-TAIL_CHARS),
  };
}
