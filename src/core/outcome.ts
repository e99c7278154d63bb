import { isRecord } from "./content.ts";
import type { ErrorLine } from "./error_lines.ts";
import { commandErrorLines, reportedError } from "./error_output.ts";
import { echoedStatus, exitMeaning, statusPasser } from "./exit_meaning.ts";
import { resultObject } from "./json_result.ts";
import {
  INTERRUPTED_OUTPUT_MARK,
  JOB_COMMAND_FIELD,
  JOB_OUTPUT_FIELDS,
  JOB_SHELL_EXIT_LINE,
  TIMED_OUT_OUTPUT_MARK,
  YIELDED_STATUS,
} from "./hermes.ts";
import { meaningKind, type OutcomeState } from "./outcome_words.ts";
import { failingTally, withoutRules } from "./output_facts.ts";
import { persistedOutput } from "./persisted_output.ts";
import { withoutOverwrites } from "./sanitize.ts";
import { parseStub, type Stub } from "./stub.ts";

/** The outcome of one tool call, read from its result. */
export interface Outcome extends OutcomeState {
  /** For a command that exited 0: the line in which it still reported an error. */
  readonly reportedError?: string;
  /** The result's own words worth quoting (output, error text, or the stub). */
  readonly detail: string;
  /** The pruning stub the result was replaced with, if any. */
  readonly stub?: Stub;
  /** Where Hermes saved a result too large to keep, and its size in characters. */
  readonly saved?: { readonly path: string; readonly size?: number };
  /** The background job (Hermes's process id) the result started or reports on. */
  readonly job?: string;
  /** A command's output's error lines (see `error_lines.ts`), read once for all who need them. */
  readonly errorLines?: readonly ErrorLine[];
  /** The result's JSON object, when the result was one (read once for all who need it). */
  readonly result?: Readonly<Record<string, unknown>>;
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
// What a process tool says of its job: it ended (with its exit code), it still runs, it was killed.
const JOB_EXITED = new Set(["exited", "already_exited", "completed", "finished"]);
const JOB_RUNNING = new Set(["running", "started", "in_progress", "interrupted", "timeout"]);
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
  /** A command started in the background: its result says it started, whatever its exit code. */
  readonly background?: boolean;
  /** A process-tool call (wait, poll, log, kill): its result reports its job's status. */
  readonly process?: boolean;
  /** The command line, when the call ran one: some exit statuses are answers (`grep` 1). */
  readonly commandLine?: string;
}

/**
 * Reads the outcome of one tool result: raw JSON (`exit_code`, `error`, `status`; notes Hermes
 * appended after it aside), Hermes's pruning stubs, its persisted-output block, or plain text. A
 * persisted-output block is read as the whole output it saved (`savedOutput`) when that was
 * found, else as its preview.
 */
export function readOutcome(text: string, call: CallKind, savedOutput?: string): Outcome {
  const stub = parseStub(text);
  if (stub) return interpretExit(stubOutcome(stub, text), call);
  const persisted = persistedOutput(text);
  if (persisted) {
    const { preview, host: _host, ...saved } = persisted;
    if (savedOutput !== undefined) return { ...readOutcome(savedOutput, call), saved };
    // The preview's object is a part of the result rebuilt, not the result.
    const { result: _preview, ...read } = readOutcome(previewText(preview), call);
    return { ...read, saved };
  }
  const read = resultObject(text);
  if (read === undefined) return interpretExit(textOutcome(text, call.command), call);
  const result = call.process ? withoutShellExit(read) : read;
  return { ...interpretExit(jsonOutcome(result, call), jobCall(call, result)), result };
}

/**
 * A process result's call as the job's own command line: what the job printed is read as what
 * that command printed (an error it printed, an exit status that is an answer).
 */
function jobCall(call: CallKind, result: Record<string, unknown>): CallKind {
  const command = result[JOB_COMMAND_FIELD];
  if (!call.process || call.commandLine !== undefined || typeof command !== "string") return call;
  return command.trim() === "" ? call : { ...call, commandLine: command };
}

/** A process result with its job's output as the job printed it, its shell's closing line left out. */
function withoutShellExit(result: Record<string, unknown>): Record<string, unknown> {
  const cleaned = { ...result };
  for (const field of JOB_OUTPUT_FIELDS) {
    const output = result[field];
    if (typeof output === "string") cleaned[field] = output.replace(SHELL_EXIT_AT_END, "");
  }
  return cleaned;
}

const SHELL_EXIT_AT_END = new RegExp(String.raw`(?:^|\n)${RegExp.escape(JOB_SHELL_EXIT_LINE)}\s*$`);

/**
 * The words of a persisted result's preview: the start of its output when the result was JSON (cut
 * short, so no longer a document), else the preview as it is. An exit code the preview still shows
 * is kept.
 */
function previewText(preview: string): string {
  const output = /^\{\s*"output"\s*:\s*"/.exec(preview);
  if (!output) return preview;
  const rest = preview.slice(output[0].length);
  const end = /(?<!\\)(?:\\\\)*"/.exec(rest);
  const body = end ? rest.slice(0, end.index + end[0].length - 1) : rest.replace(/\\$/, "");
  const exit = EXIT_IN_TEXT.exec(preview);
  let decoded: string;
  try {
    decoded = JSON.parse(`"${body}"`) as string;
  } catch {
    decoded = body.replace(/\\n/g, "\n").replace(/\\(.)/g, "$1");
  }
  return exit ? JSON.stringify({ output: decoded, exit_code: Number(exit[1]) }) : decoded;
}

/**
 * Reads an exit status in the light of the command that returned it, and the output's error lines
 * as the command printed them (a pruning stub keeps no output).
 */
function interpretExit(outcome: Outcome, call: CallKind): Outcome {
  const line = call.commandLine;
  if (line === undefined) return outcome;
  const read = outcome.stub
    ? outcome
    : { ...outcome, errorLines: commandErrorLines(line, outcome.detail) };
  if (read.exitCode === undefined) return read;
  if (read.kind === "failed") {
    const meaning = exitMeaning(line, read.exitCode, read.detail);
    return meaning === undefined ? read : { ...read, kind: meaningKind(meaning), meaning };
  }
  if (read.kind === "succeeded") {
    // The work's status as the line echoed it last, where it did (the line's is the echo's).
    const echoed = read.stub ? undefined : echoedStatus(line, read.detail);
    if (echoed?.meaning !== undefined) {
      return {
        ...read,
        kind: meaningKind(echoed.meaning),
        exitCode: echoed.status,
        meaning: echoed.meaning,
      };
    }
    if (echoed !== undefined && echoed.status !== 0) {
      return { ...read, kind: "failed", exitCode: echoed.status };
    }
    // A status passed on by `tail` or `|| true` says nothing of the work before it.
    const passer = echoed === undefined ? statusPasser(line) : undefined;
    const ran: Outcome = passer === undefined ? read : { ...read, kind: "relayed", exitOf: passer };
    // A relayed status hides a test run's failures: a tally that counts some reports them.
    const tally = passer === undefined ? undefined : failingTally(ran);
    const error = reportedError(line, read.detail, read.errorLines) ??
      (tally === undefined ? undefined : withoutRules(tally));
    return error === undefined ? ran : { ...ran, reportedError: error, printedError: true };
  }
  return read;
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
    case "refused":
      return { kind: stub.pending ? "pending" : "blocked", detail: text, stub };
    case "cleared":
      return { kind: "unknown", detail: text, stub };
  }
}

function jsonOutcome(result: Record<string, unknown>, call: CallKind): Outcome {
  const { command, background = false } = call;
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
  // Hermes words a refusal's error `BLOCKED: …`, whatever its status and exit code say.
  if (BLOCKED_STATUS.has(status) || result.blocked === true || BLOCKED_TEXT.test(error)) {
    return { kind: "blocked", detail, ...withExit };
  }
  if (PENDING_STATUS.has(status) || result.approval_required === true) {
    return { kind: "pending", detail, ...withExit };
  }
  const job = typeof result.session_id === "string" && result.session_id !== ""
    ? { job: result.session_id }
    : {};
  // The start notice's exit code 0 says the job started, nothing of how it ends.
  if (background && error === "" && result.success !== false) {
    return { kind: "background", detail, ...job };
  }
  if (call.process) return { ...jobOutcome(result, status, exitCode, error, detail), ...job };
  if (status === YIELDED_STATUS) return { kind: "background", detail, ...job };
  const lastLine = lastOutputLine(result.output);
  if (
    TIMEOUT_STATUS.has(status) || result.timed_out === true ||
    (error !== "" && TIMEOUT_TEXT.test(error)) || lastLine.startsWith(TIMED_OUT_OUTPUT_MARK)
  ) {
    return { kind: "timeout", detail, ...withExit };
  }
  if (
    INTERRUPTED_STATUS.has(status) || result.interrupted === true ||
    lastLine === INTERRUPTED_OUTPUT_MARK
  ) {
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

/**
 * What a process tool's result says of its job: exited with its code, still running (a wait
 * whose window elapsed says `timeout` with `process_running`), killed; else whether the call
 * itself worked.
 */
function jobOutcome(
  result: Record<string, unknown>,
  status: string,
  exitCode: number | undefined,
  error: string,
  detail: string,
): Outcome {
  // Killed on request: a kill's own answer, or the exit a later poll reports (SIGTERM's -15).
  if (status === "killed" || result.completion_reason === "killed") {
    return { kind: "killed", detail, ...(exitCode === undefined ? {} : { exitCode }) };
  }
  if (JOB_EXITED.has(status) && exitCode !== undefined) {
    return { kind: exitCode === 0 ? "succeeded" : "failed", exitCode, detail };
  }
  if (JOB_RUNNING.has(status) || result.process_running === true) {
    return { kind: "running", detail };
  }
  if (error !== "" || FAILURE_STATUS.has(status) || status === "not_found") {
    return { kind: "error", detail };
  }
  return { kind: "no-exit", detail };
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

/** The last non-blank line of a result's output, where Hermes notes a deadline or an interrupt. */
function lastOutputLine(output: unknown): string {
  if (typeof output !== "string") return "";
  const text = output.trimEnd();
  return text.slice(text.lastIndexOf("\n") + 1).trim();
}

function errorText(result: Record<string, unknown>): string {
  for (const value of [result.error, result.stderr_error, result.reason]) {
    if (typeof value === "string" && value.trim() !== "") return value;
    if (isRecord(value) && typeof value.message === "string") return value.message;
  }
  return "";
}

const OUTPUT_KEYS = [...JOB_OUTPUT_FIELDS, "stdout", "content", "result", "message", "stderr"];

/**
 * The words of a JSON result worth quoting: its output and error fields, an error the output
 * already holds once (empty when it has output fields that are all empty), else all its leaves.
 */
function jsonDetail(result: Record<string, unknown>, error: string): string {
  const parts: string[] = [];
  for (const key of OUTPUT_KEYS) {
    const value = result[key];
    // A program's output is read as a terminal shows it (a progress bar's last state).
    if (typeof value === "string" && value.trim() !== "") parts.push(withoutOverwrites(value));
  }
  // An error the output already prints (execute_code copies its stderr into `error`) is said once.
  if (error !== "" && !parts.some((part) => part.includes(error.trim()))) parts.push(error);
  if (parts.length > 0) return parts.join("\n");
  return OUTPUT_KEYS.some((key) => typeof result[key] === "string") ? "" : leaves(result);
}

/**
 * The scalar leaves of the first levels of a JSON value with their keys, without recursion:
 * `key value` words, at most 50 children per level and 4 levels deep.
 */
function leaves(value: unknown): string {
  const words: string[] = [];
  const stack: { readonly value: unknown; readonly depth: number; readonly key: string }[] = [
    { value, depth: 0, key: "" },
  ];
  while (stack.length > 0) {
    const { value: item, depth, key } = stack.pop()!;
    if (typeof item === "string" || typeof item === "number" || typeof item === "boolean") {
      const text = String(item);
      if (text !== "") words.push(key === "" ? text : `${key} ${text}`);
      continue;
    }
    if (depth > 4 || item === null || typeof item !== "object") continue;
    if (key !== "") words.push(key);
    const children = Array.isArray(item)
      ? item.slice(0, 50).map((child) => ["", child] as const)
      : Object.entries(item).slice(0, 50);
    for (let index = children.length - 1; index >= 0; index--) {
      const [childKey, child] = children[index]!;
      stack.push({ value: child, depth: depth + 1, key: childKey });
    }
  }
  return words.join(" ");
}

function firstNumber(...values: unknown[]): number | undefined {
  for (const value of values) {
    if (typeof value === "number" && Number.isInteger(value)) return value;
  }
  return undefined;
}
