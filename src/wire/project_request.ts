import type { ProjectOptions } from "../core/mod.ts";

/** A window and the options to project it with, as read from a request object. */
export interface ProjectRequest {
  /** The window, as given: entries that are not usable messages are the projector's to skip. */
  readonly messages: unknown[];
  /** The session id, budget, previous summary and focus the request carried. */
  readonly options: ProjectOptions;
}

/** A request object field has the wrong type; the message names the field. */
export class ProjectRequestError extends Error {
  /** An error whose `message` says what is wrong, naming the field. */
  constructor(message: string) {
    super(message);
    this.name = "ProjectRequestError";
  }
}

/**
 * Reads `{messages, session_id, previous, focus, budget_tokens}`, the shape shared by the input
 * of `vcc project` and the params of the bridge's `project` method. Optional fields may be absent
 * or `null`; unknown fields are ignored. Throws {@linkcode ProjectRequestError} for a wrong type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const request = readProjectRequest({ messages: [], session_id: "s1", budget_tokens: 2000 });
 * assert.deepEqual(request.options, { sessionId: "s1", budgetTokens: 2000 });
 * assert.throws(() => readProjectRequest({ messages: "x" }), ProjectRequestError);
 * ```
 */
export function readProjectRequest(object: Readonly<Record<string, unknown>>): ProjectRequest {
  const { messages, session_id, previous, focus, budget_tokens } = object;
  if (!Array.isArray(messages)) throw new ProjectRequestError('"messages" must be an array');
  const sessionId = optionalString(session_id, "session_id");
  const previousText = optionalString(previous, "previous");
  const focusText = optionalString(focus, "focus");
  const budgetTokens = optionalBudget(budget_tokens);
  return {
    messages,
    options: {
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(budgetTokens === undefined ? {} : { budgetTokens }),
      ...(previousText === undefined ? {} : { previous: previousText }),
      ...(focusText === undefined ? {} : { focus: focusText }),
    },
  };
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new ProjectRequestError(`"${name}" must be a string`);
  return value;
}

function optionalBudget(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new ProjectRequestError('"budget_tokens" must be a positive integer');
  }
  return value;
}
