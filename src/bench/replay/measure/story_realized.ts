/**
 * Whether a run played the story as written, read from what Hermes stored: every step's result
 * is there and shows what its action expects (its exit code, its texts, a persisted output), and
 * every fact's probes occur in the message it was planted in. A run that fails this is not a
 * replay of the story, and its scores say nothing.
 *
 * @module
 */
import type { PlantedFact } from "../story/fact.ts";
import { callId, placedSteps, type Story } from "../story/story.ts";
import { factProbes } from "./fact_check.ts";
import { originalCall, originalResult, type StoredRow } from "./stored_rows.ts";

const EXIT_CODE = /"exit_code"\s*:\s*(-?\d+)/;
const PERSISTED = "<persisted-output>";

function plantedText(fact: PlantedFact, story: Story, rows: readonly StoredRow[]): string {
  const source = fact.sources[0]!;
  switch (source.kind) {
    case "user":
      return story.turns[source.turn]!.prompt;
    case "closing":
      return story.turns[source.turn]!.closing;
    case "note":
      return originalCall(rows, callId(source.step))?.content ?? "";
    case "call":
      return originalCall(rows, callId(source.step))?.calls.map((call) => call.arguments).join(
        "\n",
      ) ??
        "";
    case "result":
      return originalResult(rows, callId(source.step))?.content ?? "";
  }
}

function decodedJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 0) + "\n" + JSON.parse(text)?.output;
  } catch {
    return "";
  }
}

/** What in `rows` departs from `story`, one line per departure (none: it ran as written). */
export function storyDepartures(story: Story, rows: readonly StoredRow[]): string[] {
  const departures: string[] = [];
  for (const step of placedSteps(story)) {
    const id = callId(step.index);
    const result = originalResult(rows, id);
    if (!result) {
      departures.push(`${id} (${step.action.kind}): no stored result`);
      continue;
    }
    const { exitCode, shows, persisted } = step.action.expect;
    const code = EXIT_CODE.exec(result.content)?.[1];
    if (exitCode !== undefined && !persisted && code !== String(exitCode)) {
      departures.push(
        `${id} (${step.action.kind}): exit code ${code ?? "none"}, expected ${exitCode}`,
      );
    }
    if (persisted !== undefined && result.content.includes(PERSISTED) !== persisted) {
      departures.push(`${id} (${step.action.kind}): ${persisted ? "not " : ""}persisted`);
    }
    const text = result.content + "\n" + decodedJson(result.content);
    for (const shown of shows ?? []) {
      if (!text.includes(shown)) {
        departures.push(`${id} (${step.action.kind}): does not show ${JSON.stringify(shown)}`);
      }
    }
  }
  for (const fact of story.facts) {
    const text = plantedText(fact, story, rows);
    const all = text + "\n" + decodedJson(text);
    for (const probe of factProbes(fact, rows)) {
      if (!all.includes(probe)) {
        departures.push(`fact ${fact.id}: ${JSON.stringify(probe)} is not where it was planted`);
      }
    }
  }
  return departures;
}
