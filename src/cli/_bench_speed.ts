import { command, constant, flag, map, message, object, option, optional } from "@optique/core";
import { integer } from "@optique/core/valueparser";
import type { Distribution, SpeedRow } from "../bench/speed.ts";
import { RuntimeFailure } from "./_errors.ts";
import { printSummary, saveReport, stderrProgress } from "./_bench_output.ts";
import { formatTable } from "./_display.ts";
import type { Runner } from "./_runner.ts";

/** `vcc bench speed`: projection times by window size, in process and through `vcc serve`. */
export const benchSpeedCommand = command(
  "speed",
  map(
    object({
      kind: constant("bench-speed"),
      windows: optional(option("--windows", integer({ min: 1, max: 100, metavar: "N" }), {
        description: message`Generated windows per size (default 5)`,
      })),
      repeats: optional(option("--repeats", integer({ min: 1, max: 100, metavar: "N" }), {
        description: message`Projections of each window (default 3)`,
      })),
      maxTokens: optional(option("--max-tokens", integer({ min: 1000, metavar: "N" }), {
        description: message`Largest window size to measure (default 2500000, about 10 MB)`,
      })),
      noServe: optional(flag("--no-serve", {
        description: message`Measure in process only, without starting vcc serve`,
      })),
      json: optional(flag("--json", { description: message`Timings as JSON` })),
    }),
    (args): Runner => async (out) => {
      const { measureSpeed, SPEED_SIZES } = await import("../bench/speed.ts");
      const sizes = SPEED_SIZES.filter((size) => size <= (args.maxTokens ?? Infinity));
      const measure = async (serve?: import("../bridge/client.ts").ServeClient) =>
        await measureSpeed({
          sizes,
          windows: args.windows ?? 5,
          repeats: args.repeats ?? 3,
          progress: await stderrProgress(out, "speed"),
          ...(serve ? { serve } : {}),
        });
      let rows: SpeedRow[];
      if (args.noServe) {
        rows = await measure();
      } else {
        const { ServeClient } = await import("../bridge/client.ts");
        const { selfCommand } = await import("../hermes/self_command.ts");
        let client;
        try {
          client = await ServeClient.start([...selfCommand(), "serve"]);
        } catch (error) {
          throw new RuntimeFailure(
            `cannot start vcc serve (${error instanceof Error ? error.message : error}); ` +
              "use --no-serve to measure in process only",
          );
        }
        await using _server = client;
        rows = await measure(client);
      }
      const report = await saveReport("speed.json", { rows });
      printSummary(out, args, { rows, report }, [speedTable(rows), `report: ${report}`]);
      return 0;
    },
  ),
  {
    description: message`Projection time by window size, in process and through vcc serve`,
    footer: message`Example: vcc bench speed --windows 5 --repeats 3`,
  },
);

function speedTable(rows: readonly SpeedRow[]): string {
  const cells = (d: Distribution | undefined) =>
    d ? [d.p50, d.p90, d.max].map((ms) => ms.toFixed(1)) : ["-", "-", "-"];
  return formatTable([
    ["TOKENS", "MB", "N", "P50 MS", "P90 MS", "MAX MS", "SERVE P50", "SERVE P90", "SERVE MAX"],
    ...rows.map((row) => [
      String(row.tokens),
      (row.chars / 1e6).toFixed(2),
      String(row.inProcess.n),
      ...cells(row.inProcess),
      ...cells(row.serve),
    ]),
  ]).trimEnd();
}
