import { command, constant, map, message, object, option, optional } from "@optique/core";
import { choice } from "@optique/core/valueparser";
import { demoRun } from "../demo/demo_projection.ts";
import { printProjection } from "./_print_projection.ts";
import type { Runner } from "./_runner.ts";

/** `vcc demo`: projects the bundled sample session and prints the merged second compaction. */
export const demoCommand = command(
  "demo",
  map(
    object({
      kind: constant("demo"),
      format: optional(option("--format", choice(["md", "json"]), {
        description: message`md (default): the summary; json: the summary and its stats`,
      })),
    }),
    (args): Runner => (out) => {
      const started = performance.now();
      const run = demoRun();
      const elapsed = performance.now() - started;
      const { stats } = run.second.projection;
      out.stderr(
        `vcc demo: a sample session of ${run.messages} messages compacted twice; this is the second ` +
          `projection (${run.second.window.length} messages merged with the first), ` +
          `${stats.chars} of ${stats.budgetChars} chars, both in ${elapsed.toFixed(1)} ms`,
      );
      printProjection(out, run.second.projection, args.format ?? "md", elapsed);
      return Promise.resolve(0);
    },
  ),
  {
    description:
      message`Project the bundled sample session (about 200 messages) and print the summary`,
    footer: message`Example: vcc demo --format json`,
  },
);
