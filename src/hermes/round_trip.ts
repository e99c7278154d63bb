import { ServeClient } from "../bridge/client.ts";

/** What one live exchange with `vcc serve` showed. */
export interface RoundTrip {
  /** `serverInfo.version` from the handshake. */
  readonly serverVersion: string;
  /** Length of the projection of the sample window. */
  readonly bodyChars: number;
  /** From spawning the server to its exit after `shutdown`. */
  readonly elapsedMs: number;
}

/** The three-message window a round trip projects: a test command and its passing result. */
export const SAMPLE_WINDOW = [
  { role: "user", content: "Run the tests." },
  {
    role: "assistant",
    content: "",
    tool_calls: [{
      id: "call_1",
      type: "function",
      function: { name: "terminal", arguments: '{"command":"pytest -q"}' },
    }],
  },
  {
    role: "tool",
    tool_call_id: "call_1",
    tool_name: "terminal",
    content: '{"output":"3 passed","exit_code":0}',
  },
];

/**
 * Starts `argv` (a `vcc serve` command), performs the handshake, projects a three-message sample
 * window and shuts the server down. Throws an `Error` saying what went wrong, with the server's last
 * standard-error lines, when any step fails or an answer takes longer than `timeoutMs`.
 */
export async function bridgeRoundTrip(
  argv: readonly string[],
  timeoutMs = 15_000,
): Promise<RoundTrip> {
  const started = performance.now();
  let bodyChars: number;
  let serverVersion: string;
  {
    await using client = await ServeClient.start(argv, timeoutMs);
    serverVersion = client.server.version;
    const projection = await client.project(SAMPLE_WINDOW, { sessionId: "doctor" });
    if (typeof projection.body !== "string") throw new Error("the project result has no body");
    bodyChars = projection.body.length;
  }
  return { serverVersion, bodyChars, elapsedMs: performance.now() - started };
}
