import { noProgress, type Progress } from "../progress.ts";
import { chatCompletion, type ChatServer } from "./chat_client.ts";
import { renderFullContext } from "./_full_context.ts";
import { type Answer, FULL, type HeadToHeadWorkspace } from "./workspace.ts";

const INSTRUCTIONS = "You answer questions about a coding agent's session using only the " +
  "context below. Reply with the answer alone. If the context does not contain the answer, " +
  "reply UNKNOWN.";

/** How an asking step went. */
export interface AskCounts {
  readonly contexts: number;
  readonly windows: number;
  readonly questions: number;
  /** (context, window) pairs answered in an earlier run or lacking their context text. */
  readonly skipped: number;
  readonly failed: number;
}

/**
 * Asks every question of every frozen window, in both wordings, under each context: `FULL` (the
 * region without compaction), `STOCK`, or a variant name. Pairs answered before are skipped.
 */
export async function askQuestions(
  workspace: HeadToHeadWorkspace,
  server: ChatServer,
  contexts: readonly string[],
  progress: Progress = noProgress,
): Promise<AskCounts> {
  const ids = await workspace.windowIds();
  let questions = 0;
  let skipped = 0;
  let failed = 0;
  let done = 0;
  for (const context of contexts) {
    for (const id of ids) {
      progress(done++, contexts.length * ids.length);
      if (await workspace.answers(context, id)) {
        skipped++;
        continue;
      }
      const window = await workspace.window(id);
      const text = context === FULL
        ? renderFullContext(window.rows)
        : (await workspace.contextText(context, id))?.text;
      if (text === undefined) {
        skipped++;
        continue;
      }
      const answers: Answer[] = [];
      try {
        for (const question of window.questions) {
          for (const wording of [0, 1] as const) {
            const reply = await chatCompletion(server, [
              { role: "system", content: INSTRUCTIONS },
              {
                role: "user",
                content: `Context:\n${text}\n\nQuestion: ${question.wordings[wording]}`,
              },
            ]);
            answers.push({ question: question.id, wording, reply: reply.content });
          }
        }
      } catch {
        failed++;
        continue;
      }
      questions += window.questions.length;
      await workspace.saveAnswers(context, id, answers);
    }
  }
  progress(done, contexts.length * ids.length);
  return { contexts: contexts.length, windows: ids.length, questions, skipped, failed };
}
