import { isRecord } from "./content.ts";
import { parseStub, type Stub } from "./stub.ts";

/** What a tool result says happened. */
export type OutcomeKind =
  | "succeeded"
  | "failed"
  | "no-exit"
  | "ok"
  | "error"
  | "blocked"
  | "pending"
  | "timeout"
  | "interrupted"
  | "background"
  | "running"
  | "unknown"
  | "missing";

/** The outcome of one tool call, read from its result. */
export interface Outcome {
  readonly kind: OutcomeKind;
  readonly exitCode?: number;
  /** The result's own words worth quoting (output, error text, or the stub). */
  readonly detail: string;
  /** The pruning stub the result was replaced with, if any. */
  readonly stub?: Stub;
}

const BLOCKED_STATUS = new Set(["blocked", "denied", "refused", "rejected", "forbidden"]);
const PENDING_STATUS = new Set([
  "pending_approval",
  "approval_required",
  "awaiting_approval",
  "needs_approval",
  "pending",
]);
const TIMEOUT_STATUS = new Set(["timeout", "timed_out", "timedout"]);
const INTERRUPTED_STATUS = new Set(["interrupted", "cancelled", "canceled", "killed", "aborted"]);
const RUNNING_STATUS = new Set(["running", "started", "in_progress"]);
const SUCCESS_STATUS = new Set(["success", "succeeded", "ok", "completed", "done"]);
const FAILURE_STATUS = new Set(["error", "failed", "failure"]);

const EXIT_IN_TEXT = /"exit_code"\s*:\s*(-?\d+)/;
const BLOCKED_TEXT =
  /^\s*(?:BLOCKED|Blocked)\b|\bdenied by (?:the )?user\b|\bcommand (?:was )?(?:blocked|refused|rejected)\b/;
const PENDING_TEXT = /\b(?:requires?|awaiting|pending) (?:user )?approval\b/i;
const ERROR_TEXT = /^\s*(?:error|ERROR|Error)\b/;
const TIMEOUT_TEXT = /\btimed? ?out\b/i;
const STATUS_HEAD_CHARS = 400;

/** The outcome of a call whose result never arrived in the window. */
export const MISSING: Outcome = { kind: "missing", detail: "" };

/** What kind of call a result answers, which changes how its words are read. */
export interface CallKind {
  /** Command work (terminal, execute_code, process): the outcome is an exit status, and without
   * one it never counts as a success. */
  readonly command: boolean;
  /** A command started in the background: a result without exit code means it started. */
  readonly background?: boolean;
  /** A request to kill a background process: a killed or exited status is its success. */
  readonly kill?: boolean;
}

/**
 * Reads the outcome of one tool result: raw JSON (`exit_code`, `error`, `status`), Hermes's pruning
 * stubs, or plain text.
 */
export function readOutcome(text: string, call: CallKind): Outcome {
  const stub = parseStub(text);
  if (stub) return stubOutcome(stub, text);
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) {
    const parsed = parseObject(trimmed);
    if (parsed) return jsonOutcome(parsed, call);
  }
  return textOutcome(text, call.command);
}

function stubOutcome(stub: Stub, text: string): Outcome {
  switch (stub.kind) {
    case "terminal":
      return stub.exitCode === undefined ? { kind: "no-exit", detail: text, stub } : {
        kind: stub.exitCode === 0 ? "succeeded" : "failed",
        exitCode: stub.exitCode,
        detail: text,
        stub,
      };
    case "execute_code":
    case "process":
      return { kind: "no-exit", detail: text, stub };
    case "file":
    case "other":
      return { kind: "ok", detail: text, stub };
    case "cleared":
      return { kind: "unknown", detail: text, stub };
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function jsonOutcome(result: Record<string, unknown>, call: CallKind): Outcome {
  const { command, background = false, kill = false } = call;
  const status = typeof result.status === "string" ? result.status.toLowerCase() : "";
  const error = errorText(result);
  const detail = jsonDetail(result, error);
  const exitCode = firstNumber(
    result.exit_code,
    result.exitCode,
    result.returncode,
    result.return_code,
  );
  const withExit = exitCode === undefined ? {} : { exitCode };
  if (BLOCKED_STATUS.has(status) || result.blocked === true) {
    return { kind: "blocked", detail, ...withExit };
  }
  if (PENDING_STATUS.has(status) || result.approval_required === true) {
    return { kind: "pending", detail, ...withExit };
  }
  if (
    TIMEOUT_STATUS.has(status) || result.timed_out === true ||
    (error !== "" && TIMEOUT_TEXT.test(error))
  ) {
    return { kind: "timeout", detail, ...withExit };
  }
  if (kill && error === "" && (INTERRUPTED_STATUS.has(status) || status === "exited")) {
    return { kind: "succeeded", detail, ...withExit };
  }
  if (INTERRUPTED_STATUS.has(status) || result.interrupted === true) {
    return { kind: "interrupted", detail, ...withExit };
  }
  if (exitCode !== undefined) {
    return { kind: exitCode === 0 ? "succeeded" : "failed", exitCode, detail };
  }
  if (error !== "" || result.success === false || FAILURE_STATUS.has(status)) {
    return { kind: command ? "failed" : "error", detail };
  }
  if (SUCCESS_STATUS.has(status) || result.success === true) {
    return { kind: command ? "succeeded" : "ok", detail };
  }
  if (RUNNING_STATUS.has(status)) return { kind: background ? "background" : "running", detail };
  if (background) return { kind: "background", detail };
  return { kind: command ? "no-exit" : "ok", detail };
}

function textOutcome(text: string, command: boolean): Outcome {
  const exit = text.includes('"exit_code"') ? EXIT_IN_TEXT.exec(text) : null;
  if (exit) {
    const exitCode = Number(exit[1]);
    return { kind: exitCode === 0 ? "succeeded" : "failed", exitCode, detail: text };
  }
  // Refusals and approval requests are short notices: their words come first.
  const head = text.length > STATUS_HEAD_CHARS ? text.slice(0, STATUS_HEAD_CHARS) : text;
  if (BLOCKED_TEXT.test(head)) return { kind: "blocked", detail: text };
  if (PENDING_TEXT.test(head)) return { kind: "pending", detail: text };
  if (ERROR_TEXT.test(text)) return { kind: command ? "failed" : "error", detail: text };
  return { kind: command ? "no-exit" : "ok", detail: text };
}

function errorText(result: Record<string, unknown>): string {
  for (const value of [result.error, result.stderr_error, result.reason]) {
    if (typeof value === "string" && value.trim() !== "") return value;
    if (isRecord(value) && typeof value.message === "string") return value.message;
  }
  return "";
}

/** The words of a JSON result worth quoting: its output and error fields, else all its leaves. */
function jsonDetail(result: Record<string, unknown>, error: string): string {
  const parts: string[] = [];
  for (const key of ["output", "stdout", "content", "result", "message", "stderr"]) {
    const value = result[key];
    if (typeof value === "string" && value.trim() !== "") parts.push(value);
  }
  if (error !== "") parts.push(error);
  return parts.length > 0 ? parts.join("\n") : leaves(result);
}

function leaves(value: unknown, depth = 0): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (depth > 4 || value === null || typeof value !== "object") return "";
  const entries = Array.isArray(value)
    ? value.map((item) => ["", item] as const)
    : Object.entries(value);
  return entries
    .slice(0, 50)
    .map(([key, item]) => {
      const inner = leaves(item, depth + 1);
      return key === "" ? inner : inner === "" ? "" : `${key} ${inner}`;
    })
    .filter((text) => text !== "")
    .join(" ");
}

function firstNumber(...values: unknown[]): number | undefined {
  for (const value of values) {
    if (typeof value === "number" && Number.isInteger(value)) return value;
  }
  return undefined;
}

/** Whether an outcome counts as the call working. */
export function isSuccess(outcome: Outcome): boolean {
  return outcome.kind === "succeeded" || outcome.kind === "ok";
}

/** Whether an outcome counts as the call failing (fixable by a later identical success). */
export function isFailure(outcome: Outcome): boolean {
  return outcome.kind === "failed" || outcome.kind === "error" || outcome.kind === "timeout" ||
    outcome.kind === "interrupted";
}

/** Whether an outcome means the call was refused or is waiting for the user's approval. */
export function isBlocked(outcome: Outcome): boolean {
  return outcome.kind === "blocked" || outcome.kind === "pending";
}

/**
 * The projection's words for an outcome: `succeeded (exit 0)`, `failed (exit 1)`,
 * `ran (no exit code)`, `blocked`, `pending approval`, `timed out`, …
 */
export function describeOutcome(outcome: Outcome): string {
  const exit = outcome.exitCode === undefined ? "" : ` (exit ${outcome.exitCode})`;
  switch (outcome.kind) {
    case "succeeded":
      return `succeeded${exit}`;
    case "failed":
      return exit === "" ? "failed (error)" : `failed${exit}`;
    case "no-exit":
      return "ran (no exit code)";
    case "ok":
      return "ok";
    case "error":
      return "error";
    case "blocked":
      return `blocked${exit}`;
    case "pending":
      return "pending approval";
    case "timeout":
      return `timed out${exit}`;
    case "interrupted":
      return `interrupted${exit}`;
    case "background":
      return "started in background";
    case "running":
      return "still running";
    case "unknown":
      return "output cleared";
    case "missing":
      return "no result";
  }
}
