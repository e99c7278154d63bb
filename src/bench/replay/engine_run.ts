/**
 * One engine's run of a story on one Hermes release: the scripted model's server, the sandbox,
 * each user turn through `hermes chat`, and the record of every request, kept with Hermes's
 * store and log in the run's directory for inspection.
 *
 * @module
 */
import { join } from "node:path";
import { writePrivateFile, writePrivateJson } from "../private_files.ts";
import type { HermesRelease } from "./hermes_release.ts";
import { runHermesTurn, type TurnOutcome } from "./hermes_turn.ts";
import { type ChatRequest, messageText, requestMessages } from "./model/chat_request.ts";
import type { ModelReply } from "./model/model_reply.ts";
import { startModelServer } from "./model/model_server.ts";
import { requestKind } from "./model/request_kind.ts";
import { SessionRecord, SUMMARY_MARKER } from "./measure/session_record.ts";
import { type Engine, prepareSandbox } from "./sandbox.ts";
import { StoryPlayer } from "./story_player.ts";
import type { Story } from "./story/story.ts";
import { standInSummary } from "./summary_stand_in.ts";

/** How long one turn may take before the bench stops Hermes. */
const TURN_TIMEOUT_MS = 240_000;
/** The most requests one session may make. */
const MAX_REQUESTS = 600;
const TITLE = JSON.stringify({ title: "Ledger sync balance mismatch" });

/** What one run needs. */
export interface EngineRunOptions {
  readonly story: Story;
  readonly release: HermesRelease;
  readonly engine: Engine;
  /** The run's directory (emptied first). */
  readonly dir: string;
  readonly vccCommand: readonly string[];
}

/** What one run left. */
export interface EngineRun {
  readonly engine: Engine;
  readonly dir: string;
  readonly store: string;
  readonly log: string;
  readonly record: SessionRecord;
  readonly turns: readonly TurnOutcome[];
  /** What went wrong running the story (the run cannot be scored as a fair replay then). */
  readonly problems: readonly string[];
  readonly seconds: number;
}

/** The compaction summaries the final request carries, as Hermes sent them. */
function finalSummary(request: ChatRequest | undefined): string {
  if (!request) return "";
  return requestMessages(request).map(messageText).filter((text) => text.includes(SUMMARY_MARKER))
    .join("\n\n---\n\n") + "\n";
}

function promptOf(request: ChatRequest): string {
  return requestMessages(request).map(messageText).join("\n");
}

/** Runs `options.story` once with `options.engine`. */
export async function runEngine(options: EngineRunOptions): Promise<EngineRun> {
  const started = performance.now();
  const { dir, story } = options;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const home = join(dir, "home"), project = join(dir, "project");
  const store = join(home, "state.db"), log = join(home, "logs", "agent.log");
  const player = new StoryPlayer(story, project);
  const record = new SessionRecord({ root: dir, store, log });
  const problems: string[] = [];
  const summaries: string[] = [];
  const goals = story.delegated.map((item) => item.goal);
  const respond = (request: ChatRequest): ModelReply => {
    const kind = requestKind(request, goals);
    if (kind === "summary") {
      const answer = standInSummary(promptOf(request));
      const summary = "summary" in answer ? answer.summary : "## Goal\nUnknown.";
      if ("problem" in answer) problems.push(`summary request: ${answer.problem}`);
      summaries.push(summary);
      record.request(kind, request, summary);
      return { content: summary, toolCalls: [] };
    }
    record.request(kind, request);
    if (kind === "turn") return player.turn(request);
    if (kind === "subagent") return player.subagent(request);
    return { content: kind === "title" ? TITLE : "ok", toolCalls: [] };
  };
  const server = startModelServer({
    respond,
    maxRequests: MAX_REQUESTS,
    deadlineMs: TURN_TIMEOUT_MS * story.turns.length,
  });
  const turns: TurnOutcome[] = [];
  try {
    const sandbox = await prepareSandbox(dir, { ...options, baseUrl: server.baseUrl });
    let sessionId: string | undefined;
    for (const [index, turn] of story.turns.entries()) {
      const outcome = await runHermesTurn(options.release.command, turn.prompt, {
        cwd: project,
        env: sandbox.env,
        sessionId,
        timeoutMs: TURN_TIMEOUT_MS,
      });
      turns.push(outcome);
      sessionId = outcome.sessionId;
      if (outcome.exitCode !== 0 || sessionId === undefined) {
        problems.push(
          `turn ${index + 1}: hermes ${
            outcome.exitCode === undefined ? "timed out" : `exited ${outcome.exitCode}`
          }${sessionId === undefined ? " without a session id" : ""}`,
        );
        break;
      }
    }
    record.finish();
  } finally {
    await server.close();
  }
  problems.push(...server.problems, ...player.problems);
  await writePrivateJson(join(dir, "final-request.json"), record.finalRequest ?? null);
  await writePrivateFile(join(dir, "final-summary.md"), finalSummary(record.finalRequest));
  await writePrivateFile(
    join(dir, "requests.jsonl"),
    record.main.map((main) => JSON.stringify(main)).join("\n") + "\n",
  );
  await writePrivateFile(
    join(dir, "summaries.md"),
    summaries.map((summary, index) => `# Stand-in summary ${index + 1}\n\n${summary}\n`).join("\n"),
  );
  return {
    engine: options.engine,
    dir,
    store,
    log,
    record,
    turns,
    problems,
    seconds: (performance.now() - started) / 1000,
  };
}
