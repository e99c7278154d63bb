import type { WindowFacts } from "./window_facts.ts";

/** How an answer is graded. */
export type Grading = "number" | "yes-no" | "contains" | "unknown";

/** A question about a window, asked in two wordings, with its expected answer. */
export interface Question {
  readonly id: string;
  readonly kind: "exit-code" | "file-modified" | "error-name" | "blocked" | "control";
  readonly wordings: readonly [string, string];
  readonly answer: string;
  readonly grading: Grading;
}

/** A command no generated or recorded session runs, for the control questions. */
const NEVER_RUN = "make deploy-production-cluster";

/**
 * Questions whose answers are facts of the window (commands' last exit codes, whether a file was
 * changed, error names, blocked commands) plus one control whose answer is not in the window and
 * must be UNKNOWN. Rule-generated: they look for the kinds of facts vcc extracts.
 */
export function questionsFor(windowId: string, facts: WindowFacts): Question[] {
  const questions: Omit<Question, "id">[] = [];
  const withExit = facts.commands.filter((fact) => fact.exits.at(-1) !== undefined);
  const failedFirst = [
    ...withExit.filter((fact) => fact.exits.some((code) => code !== 0)),
    ...withExit.filter((fact) => fact.exits.every((code) => code === 0)),
  ];
  for (const fact of failedFirst.slice(0, 3)) {
    const command = `\`${fact.command}\``;
    questions.push({
      kind: "exit-code",
      wordings: [
        `What exit code did the command ${command} return the last time it ran?`,
        `When the agent last ran ${command}, which exit status did it get?`,
      ],
      answer: String(fact.exits.at(-1)),
      grading: "number",
    });
  }
  const changed = facts.modified[0];
  if (changed) questions.push(fileQuestion(changed, "yes"));
  const untouched = facts.read.find((path) => !facts.modified.includes(path));
  if (untouched) questions.push(fileQuestion(untouched, "no"));
  const named = facts.commands.find((fact) => fact.errorNames.length > 0);
  if (named) {
    questions.push({
      kind: "error-name",
      wordings: [
        `Name one error type (such as FooError) that appeared in the output of \`${named.command}\`.`,
        `Which named error showed up when \`${named.command}\` ran?`,
      ],
      answer: named.errorNames.join("|"),
      grading: "contains",
    });
  }
  const blocked = facts.commands.find((fact) => fact.blocked);
  if (blocked) {
    questions.push({
      kind: "blocked",
      wordings: [
        "Which command was blocked or left waiting for approval? Give the command.",
        "Name a command the agent could not run because it was blocked or needed approval.",
      ],
      answer: facts.commands.filter((fact) => fact.blocked).map((fact) => fact.command).join("|"),
      grading: "contains",
    });
  }
  questions.push({
    kind: "control",
    wordings: [
      `What exit code did the command \`${NEVER_RUN}\` return?`,
      `When the agent ran \`${NEVER_RUN}\`, which exit status did it get?`,
    ],
    answer: "UNKNOWN",
    grading: "unknown",
  });
  return questions.map((question, index) => ({ id: `${windowId}/q${index + 1}`, ...question }));
}

function fileQuestion(path: string, answer: "yes" | "no"): Omit<Question, "id"> {
  return {
    kind: "file-modified",
    wordings: [
      `Was the file ${path} modified (patched or written) in this part of the session? Answer yes or no.`,
      `Did the agent change ${path} (a patch or a write)? Reply yes or no.`,
    ],
    answer,
    grading: "yes-no",
  };
}

/** Whether `reply` answers `question` correctly under its grading rule. */
export function isCorrect(question: Question, reply: string): boolean {
  const text = reply.trim();
  switch (question.grading) {
    case "number":
      return new RegExp(`(?<![\\d-])${question.answer.replace("-", "\\-")}(?!\\d)`).test(text) &&
        !/\bunknown\b/i.test(text);
    case "yes-no":
      return new RegExp(`^\\W*${question.answer}\\b`, "i").test(text);
    case "contains":
      return question.answer.split("|").some((option) =>
        text.toLowerCase().includes(option.toLowerCase())
      );
    case "unknown":
      return /\bunknown\b/i.test(text);
  }
}
