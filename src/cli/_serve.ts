import { command, constant, map, message, object, option, optional, text } from "@optique/core";
import { integer } from "@optique/core/valueparser";
import { DEFAULT_MAX_MESSAGE_BYTES, MIN_MAX_MESSAGE_BYTES, serve } from "../bridge/server.ts";
import type { Runner } from "./_runner.ts";

/**
 * `vcc serve`: the bridge the Hermes plugin starts. `main.ts` runs a well-formed `vcc serve`
 * without loading this module (`readServeArgs` of the server); this command lists it in the help and
 * the completions, and answers `--help` and usage errors.
 */
export const serveCommand = command(
  "serve",
  map(
    object({
      kind: constant("serve"),
      maxMessageBytes: optional(
        option("--max-message-bytes", integer({ min: MIN_MAX_MESSAGE_BYTES, metavar: "N" }), {
          description: message`Longest request line in bytes (default ${
            text(String(DEFAULT_MAX_MESSAGE_BYTES))
          }); longer lines get an error response`,
        }),
      ),
    }),
    (args): Runner => () =>
      serve({ maxMessageBytes: args.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES }),
  ),
  {
    description:
      message`Serve projections as JSON-RPC 2.0 on standard input and output, one JSON object per line`,
    footer:
      message`Logs go to standard error. Ends on end of input, on the shutdown method, or on SIGTERM. Example: vcc serve --max-message-bytes 1048576`,
  },
);
