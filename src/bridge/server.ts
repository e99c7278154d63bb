/**
 * `vcc serve`: the JSON-RPC bridge over standard input and output. The only module of the bridge
 * that does IO; it loads neither the CLI nor any npm package, so it starts fast. The CLI lists the
 * command (`src/cli/_serve.ts`) and answers its help and usage errors.
 *
 * @module
 */
import { project } from "../core/mod.ts";
import { showCommand } from "../hermes/self_command.ts";
import { projectionInput, StoredWindowReader } from "../store/mod.ts";
import { VERSION } from "../version.ts";
import { Dispatcher, PROTOCOL_VERSION, type Reply } from "./_dispatch.ts";
import { type Frame, LineSplitter } from "./_framing.ts";
import { writeAll } from "../wire/mod.ts";

/** The default limit on one request line: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The smallest limit `--max-message-bytes` accepts. */
export const MIN_MAX_MESSAGE_BYTES = 1024;

const encoder = new TextEncoder();

/** How `vcc serve` runs. */
export interface ServeOptions {
  /** The longest request line in bytes; longer lines get an error response. */
  readonly maxMessageBytes: number;
}

/**
 * Runs the bridge until standard input ends, `shutdown` is called or SIGTERM arrives, and returns
 * the exit code: 0 for those three, 1 when reading or writing the pipes fails (the client is
 * gone).
 */
export async function serve(options: ServeOptions): Promise<number> {
  const { maxMessageBytes } = options;
  const stores = new StoredWindowReader();
  const dispatcher = new Dispatcher({
    version: VERSION,
    maxMessageBytes,
    project,
    resolve: (request) => {
      const input = projectionInput(request, stores, showCommand);
      if (input.problem !== undefined) log(`projecting the window as given: ${input.problem}`);
      return input;
    },
  });
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

/**
 * The options of a well-formed `vcc serve` command line (`[--max-message-bytes N]`), read without
 * the CLI framework so the server starts fast; `undefined` for anything else (`--help`, a typo, a
 * bad number), which the CLI then answers with help or a usage error.
 */
export function readServeArgs(args: readonly string[]): ServeOptions | undefined {
  if (args.length === 0) return { maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES };
  const [name, inline] = args[0]!.split(/=(.*)/s, 2);
  const value = inline ?? args[1] ?? "";
  const words = inline === undefined ? 2 : 1;
  if (name !== "--max-message-bytes" || args.length !== words || !/^\d+$/.test(value)) {
    return undefined;
  }
  const bytes = Number(value);
  return Number.isSafeInteger(bytes) && bytes >= MIN_MAX_MESSAGE_BYTES
    ? { maxMessageBytes: bytes }
    : undefined;
}

function log(line: string): void {
  writeAll(Deno.stderr, `vcc serve: ${line}\n`);
}
