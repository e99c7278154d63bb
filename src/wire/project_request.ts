import type { ProjectOptions, Recall } from "../core/mod.ts";

/** Where the window's session is stored, so its messages can be matched to their originals. */
export interface StoreSource {
  /** Hermes's `state.db`. */
  readonly path: string;
  /** The session the window belongs to. */
  readonly sessionId: string;
}

/** A window and the options to project it with, as read from a request object. */
export interface ProjectRequest {
  /** The window, as given: entries that are not usable messages are the projector's to skip. */
  readonly messages: unknown[];
  /** The session id, budget, previous summary, focus and recall form the request carried. */
  readonly options: ProjectOptions;
  /** The store to read the window's originals from, when the request names one. */
  readonly store?: StoreSource;
}

/**
 * The budgets, in tokens, a request may ask for: from 1 to a billion, far more than any window
 * holds. `budget_tokens` and the `--budget-tokens` flags outside it are refused with
 * {@linkcode BUDGET_TOKENS_RULE}.
 */
export const BUDGET_TOKENS = { min: 1, max: 1_000_000_000 } as const;

/** What a budget outside {@linkcode BUDGET_TOKENS} is told, after its name. */
export const BUDGET_TOKENS_RULE = `must be an integer from ${BUDGET_TOKENS.min} to ${
  BUDGET_TOKENS.max.toLocaleString("en-US")
}`;

/** A request object field has the wrong type; the message names the field. */
export class ProjectRequestError extends Error {
  /** An error whose `message` says what is wrong, naming the field. */
  constructor(message: string) {
    super(message);
    this.name = "ProjectRequestError";
  }
}

/**
 * Reads `{messages, session_id, previous, focus, budget_tokens, recall, store}`, the shape shared
 * by the input of `vcc project` and the params of the bridge's `project` method: `recall` is
 * `{via?: "tool_call", profile?: string, shell?: string}`, `store` is `{path, session_id}`. Optional fields may be
 * absent or `null`; unknown fields are ignored. Throws {@linkcode ProjectRequestError} for a wrong
 * type.
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
  const { messages, session_id, previous, focus, budget_tokens, recall, store } = object;
  if (!Array.isArray(messages)) throw new ProjectRequestError('"messages" must be an array');
  const sessionId = optionalString(session_id, "session_id");
  const previousText = optionalString(previous, "previous");
  const focusText = optionalString(focus, "focus");
  const budgetTokens = optionalBudget(budget_tokens);
  const recallForm = optionalRecall(recall);
  const source = optionalStore(store);
  return {
    messages,
    options: {
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(budgetTokens === undefined ? {} : { budgetTokens }),
      ...(previousText === undefined ? {} : { previous: previousText }),
      ...(focusText === undefined ? {} : { focus: focusText }),
      ...(recallForm === undefined ? {} : { recall: recallForm }),
    },
    ...(source === undefined ? {} : { store: source }),
  };
}

function optionalRecall(value: unknown): Recall | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new ProjectRequestError('"recall" must be an object');
  const { via, profile, shell } = value;
  if (via !== undefined && via !== null && via !== "tool_call") {
    throw new ProjectRequestError('"recall.via" must be "tool_call" or absent');
  }
  const profileName = optionalString(profile, "recall.profile");
  const command = optionalString(shell, "recall.shell");
  return {
    ...(via === "tool_call" ? { via } : {}),
    ...(profileName === undefined ? {} : { profile: profileName }),
    ...(command === undefined ? {} : { shell: command }),
  };
}

function optionalStore(value: unknown): StoreSource | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new ProjectRequestError('"store" must be an object');
  const path = optionalString(value.path, "store.path");
  const sessionId = optionalString(value.session_id, "store.session_id");
  if (path === undefined || sessionId === undefined) {
    throw new ProjectRequestError('"store" needs "path" and "session_id"');
  }
  return { path, sessionId };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new ProjectRequestError(`"${name}" must be a string`);
  return value;
}

function optionalBudget(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== "number" || !Number.isInteger(value) || value < BUDGET_TOKENS.min ||
    value > BUDGET_TOKENS.max
  ) {
    throw new ProjectRequestError(`"budget_tokens" ${BUDGET_TOKENS_RULE}`);
  }
  return value;
}
