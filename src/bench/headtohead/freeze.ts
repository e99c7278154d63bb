import type { ProofWindow } from "../proofs/mod.ts";
import { questionsFor } from "./questions.ts";
import { windowFacts } from "./window_facts.ts";
import type { FrozenWindow, HeadToHeadWorkspace } from "./workspace.ts";

/**
 * Freezes windows (cut where Hermes would compact) into the workspace with their questions.
 * Returns the number of windows and questions written.
 */
export async function freezeWindows(
  workspace: HeadToHeadWorkspace,
  windows: readonly ProofWindow[],
): Promise<{ windows: number; questions: number }> {
  let questions = 0;
  for (const window of windows) {
    const id = window.id.replace(/[^\w.-]/g, "_");
    const frozen: FrozenWindow = {
      id,
      sessionId: window.options.sessionId ?? id,
      rows: window.rows,
      budgetTokens: window.options.budgetTokens ?? 2000,
      questions: questionsFor(id, windowFacts(window.rows)),
    };
    questions += frozen.questions.length;
    await workspace.saveWindow(frozen);
  }
  return { windows: windows.length, questions };
}
