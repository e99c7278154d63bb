import { project } from "../../core/mod.ts";
import { noProgress, type Progress } from "../progress.ts";
import { chatCompletion, type ChatServer } from "./chat_client.ts";
import { stockSummaryPrompt } from "./_stock_prompt.ts";
import { type FrozenWindow, type HeadToHeadWorkspace, STOCK } from "./workspace.ts";

/** How a summarising step went. */
export interface SummariseCounts {
  readonly windows: number;
  /** Windows done in an earlier run and skipped now. */
  readonly skipped: number;
  readonly failed: number;
  /** Elapsed milliseconds of the summaries made in this run. */
  readonly elapsedMs: readonly number[];
}

/** Asks the model for the stock summary of every frozen window that has none yet. */
export function summariseStock(
  workspace: HeadToHeadWorkspace,
  server: ChatServer,
  progress: Progress = noProgress,
): Promise<SummariseCounts> {
  return summarise(workspace, STOCK, progress, async (window) => {
    const reply = await chatCompletion(server, [
      { role: "user", content: stockSummaryPrompt(window.rows) },
    ]);
    return { text: reply.content, elapsedMs: reply.elapsedMs };
  });
}

/** Projects every frozen window with this checkout's vcc, saved as variant `name`. */
export function summariseVariant(
  workspace: HeadToHeadWorkspace,
  name: string,
  progress: Progress = noProgress,
): Promise<SummariseCounts> {
  return summarise(workspace, name, progress, (window) => {
    const started = performance.now();
    const { body } = project(window.rows, {
      sessionId: window.sessionId,
      budgetTokens: window.budgetTokens,
    });
    return Promise.resolve({ text: body, elapsedMs: performance.now() - started });
  });
}

async function summarise(
  workspace: HeadToHeadWorkspace,
  context: string,
  progress: Progress,
  make: (window: FrozenWindow) => Promise<{ text: string; elapsedMs: number }>,
): Promise<SummariseCounts> {
  const ids = await workspace.windowIds();
  let skipped = 0;
  let failed = 0;
  const elapsedMs: number[] = [];
  for (const [index, id] of ids.entries()) {
    const existing = await workspace.contextText(context, id);
    if (existing?.text !== undefined) {
      skipped++;
    } else {
      const started = performance.now();
      try {
        const made = await make(await workspace.window(id));
        elapsedMs.push(made.elapsedMs);
        await workspace.saveContextText(context, id, made);
      } catch (error) {
        failed++;
        const reason = error instanceof Error ? error.message : String(error);
        await workspace.saveContextText(context, id, {
          error: reason,
          elapsedMs: performance.now() - started,
        });
      }
    }
    progress(index + 1, ids.length);
  }
  return { windows: ids.length, skipped, failed, elapsedMs };
}
