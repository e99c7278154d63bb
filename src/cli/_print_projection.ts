import type { Projection } from "../core/mod.ts";
import type { Output } from "./output.ts";

/** Prints a projection as Markdown, or as JSON with its stats and the elapsed milliseconds. */
export function printProjection(
  out: Output,
  projection: Projection,
  format: "md" | "json",
  elapsedMs: number,
): void {
  if (format === "md") {
    out.stdout(projection.body.endsWith("\n") ? projection.body : `${projection.body}\n`);
    return;
  }
  const report = {
    body: projection.body,
    stats: projection.stats,
    elapsedMs: Math.round(elapsedMs * 1000) / 1000,
  };
  out.stdout(`${JSON.stringify(report, null, 2)}\n`);
}
