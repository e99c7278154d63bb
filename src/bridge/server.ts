/**
 * `vcc serve`: the JSON-RPC bridge over standard input and output. The only module of the bridge
 * that does IO; it loads neither the CLI nor any npm package, so it starts fast.
 *
 * @module
 */
import { project } from "../core/mod.ts";
import { VERSION } from "../version.ts";
import { Dispatcher, PROTOCOL_VERSION, type Reply } from "./dispatch.ts";
import { type Frame, LineSplitter } from "./framing.ts";
import { writeAll } from "../wire/mod.ts";

/** The default limit on one request line: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The smallest limit `--max-message-bytes` accepts. */
export const MIN_MAX_MESSAGE_BYTES = 1024;

const USAGE = `Usage: vcc serve [--max-message-bytes N]

Serves projections as JSON-RPC 2.0, one JSON object per line, on standard input and output.
Logs go to standard error. Ends on end of input, on the shutdown method, or on SIGTERM.

  --max-message-bytes N   longest request line in bytes, at least ${MIN_MAX_MESSAGE_BYTES}
                          (default ${DEFAULT_MAX_MESSAGE_BYTES}); longer lines get an error response
`;

const encoder = new TextEncoder();

/**
 * Runs the bridge until standard input ends, `shutdown` is called or SIGTERM arrives, and returns
 * the exit code: 0 for those three, 1 when reading or writing the pipes fails (the client is
 * gone), 2 for bad arguments.
 */
export async function serve(args: readonly string[]): Promise<number> {
  const parsed = readServeArgs(args);
  if (parsed.kind === "help") {
    writeAll(Deno.stdout, USAGE);
    return 0;
  }
  if (parsed.kind === "error") {
    log(parsed.message);
    writeAll(Deno.stderr, USAGE);
    return 2;
  }
  const { maxMessageBytes } = parsed;
  const dispatcher = new Dispatcher({ version: VERSION, maxMessageBytes, project });
  const splitter = new LineSplitter(maxMessageBytes);
  const writer = Deno.stdout.writable.getWriter();
  Deno.addSignalListener("SIGTERM", () => {
    log("SIGTERM received, exiting");
    Deno.exit(0);
  });
  const answer = async (frame: Frame): Promise<boolean> => {
    const reply: Reply = frame.kind === "line"
      ? dispatcher.handleLine(frame.bytes)
      : dispatcher.handleOversized(frame.length, frame.head);
    if (reply.response !== undefined) {
      if ("error" in reply.response) {
        log(`answered id ${reply.response.id} with error ${reply.response.error.code}`);
      }
      await writer.write(encoder.encode(`${JSON.stringify(reply.response)}\n`));
    }
    return reply.stop;
  };
  log(`vcc ${VERSION} serving protocol ${PROTOCOL_VERSION} on stdio`);
  try {
    for await (const chunk of Deno.stdin.readable) {
      for (const frame of splitter.push(chunk)) {
        if (await answer(frame)) {
          log("shutdown requested, exiting");
          return 0;
        }
      }
    }
    for (const frame of splitter.finish()) await answer(frame);
  } catch (error) {
    log(`stopped by an IO error: ${error instanceof Error ? error.message : error}`);
    return 1;
  }
  log("standard input closed, exiting");
  return 0;
}

type ServeArgs =
  | { readonly kind: "run"; readonly maxMessageBytes: number }
  | { readonly kind: "help" }
  | { readonly kind: "error"; readonly message: string };

function readServeArgs(args: readonly string[]): ServeArgs {
  let maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--help" || arg === "-h") return { kind: "help" };
    const [name, inline] = arg.split(/=(.*)/s, 2);
    if (name !== "--max-message-bytes") {
      return { kind: "error", message: `unknown argument ${JSON.stringify(arg)}` };
    }
    const bytes = Number(inline ?? args[++i]);
    if (!Number.isSafeInteger(bytes) || bytes < MIN_MAX_MESSAGE_BYTES) {
      const message = `--max-message-bytes must be an integer of at least ${MIN_MAX_MESSAGE_BYTES}`;
      return { kind: "error", message };
    }
    maxMessageBytes = bytes;
  }
  return { kind: "run", maxMessageBytes };
}

function log(line: string): void {
  writeAll(Deno.stderr, `vcc serve: ${line}\n`);
}
