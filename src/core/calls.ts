import { canonicalJson } from "./canonical_json.ts";
import {
  commandAsRun,
  commandIdentity,
  commandOf,
  MIN_SUBJECT_WIDTH,
  needsFingerprint,
  shownCommand,
} from "./command.ts";
import type { ToolEvent } from "./events.ts";
import { cut } from "./excerpt.ts";
import { fingerprint } from "./fingerprint.ts";
import { PROCESS_TOOLS } from "./hermes.ts";
import { sanitizeInline } from "./sanitize.ts";
import { commandFamily } from "./shell_words.ts";

/** Every call of one identical tool + arguments, in the order they were made. */
export interface CallGroup {
  /** The tool as shown (sanitised). */
  readonly label: string;
  /** What the call was about, sanitised onto one line: the command, the path, the pattern, … */
  readonly subject: string;
  /**
   * Set when the shown label and subject do not determine the call (a long or folded command,
   * arguments beyond the subject): a fingerprint of its identity, shown on its lines.
   */
  readonly fingerprint: string | undefined;
  /** Whether this is command work (terminal, execute_code, process). */
  readonly command: boolean;
  /**
   * The background job (Hermes's process id) its calls started or report on: the process calls
   * that wait on, poll, read or kill a job are runs of the command that started it.
   */
  readonly job?: string;
  /**
   * The piece of work its calls belong to, shared by retries that vary the details: a command's
   * program and subject (`pytest`, `deploy.sh staging`), else the call's identity.
   */
  readonly family: string;
  readonly events: ToolEvent[];
}

// Arguments that say what a non-command call was about, in order of preference.
const SUBJECT_ARGS = [
  "path",
  "file_path",
  "pattern",
  "query",
  "url",
  "goal",
  "name",
  "action",
  "question",
];
const SUBJECT_CHARS = 300;
// Arguments that say what a call's `action` was done with, in order of preference.
const ACTION_OBJECT_ARGS = ["content", "old_text", "prompt", "text"];

/** Whether an argument is text with words in it. */
function textArg(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/**
 * Groups tool events into identical calls, first-seen order. The identity of a command is its
 * tool, its full text and its working directory, never its shown text; a command Hermes cut (a
 * pruning stub's 80 characters, or cut call arguments) is the command its cut text is, since any
 * of several commands may start so (with the store read, Hermes's cuts are replaced by the
 * originals before this). Other calls are identical when their tool and canonical arguments are.
 * A process call that reports on a background job is one of the job's runs.
 */
export function groupCalls(events: readonly ToolEvent[]): CallGroup[] {
  const commands = events.map(commandOf);
  // Each background job's group, by its process id.
  const jobs = new Map<string, CallGroup>();
  const groups = new Map<string, CallGroup>();
  events.forEach((event, index) => {
    const command = commands[index];
    const report = jobReport(event);
    const started = jobs.get(report ?? "");
    if (started) {
      started.events.push(event);
      return;
    }
    let identity: string;
    let make: () => Omit<CallGroup, "events">;
    if (report !== undefined) {
      // A job whose start is not in the window (an earlier compaction's): named by its id.
      identity = `job\u0000${report}`;
      make = () => ({
        label: event.call.label,
        subject: shownCommand(`process ${report}`),
        fingerprint: undefined,
        command: true,
        job: report,
        family: identity,
      });
    } else if (command) {
      const job = event.outcome.kind === "background" ? event.outcome.job : undefined;
      // Each background job is a command of its own, whatever command line started it.
      identity = commandIdentity(command.tool, command.text, command.workdir) +
        (job === undefined ? "" : `\u0000${job}`);
      make = () => {
        const subject = shownCommand(commandAsRun(command));
        return {
          label: event.call.label,
          subject,
          // A job is named by its id, which its process calls carry.
          fingerprint: job === undefined && needsFingerprint(command, subject)
            ? fingerprint(identity)
            : undefined,
          command: true,
          ...(job === undefined ? {} : { job }),
          family: `${command.tool}\u0000${commandFamily(command.text) ?? command.text}`,
        };
      };
    } else {
      identity = `${event.call.name}\u0000${canonicalArgs(event)}`;
      make = () => {
        const { subject, complete } = subjectOf(event);
        return {
          label: event.call.label,
          subject,
          fingerprint: complete ? undefined : fingerprint(identity),
          command: false,
          family: identity,
        };
      };
    }
    let group = groups.get(identity);
    if (group) group.events.push(event);
    else groups.set(identity, group = { ...make(), events: [event] });
    const job = event.outcome.kind === "background" ? event.outcome.job : report;
    if (job !== undefined && !jobs.has(job)) jobs.set(job, group);
  });
  return [...groups.values()];
}

// The process tool's actions that report on a job: where it stands, its output, its end.
const REPORTING_ACTIONS = new Set(["wait", "poll", "log", "kill", "status"]);

/** The job a process call reports on (waits on, polls, reads, kills), by its process id. */
function jobReport(event: ToolEvent): string | undefined {
  const { name, args } = event.call;
  if (!PROCESS_TOOLS.has(name)) return undefined;
  const stub = event.outcome.stub?.kind === "process" ? event.outcome.stub : undefined;
  const action = typeof args.action === "string" ? args.action : stub?.action;
  if (action === undefined || !REPORTING_ACTIONS.has(action)) return undefined;
  const id = event.outcome.job ??
    (typeof args.session_id === "string" ? args.session_id : stub?.session);
  return id === undefined || id === "" ? undefined : id;
}

function canonicalArgs(event: ToolEvent): string {
  const stub = event.outcome.stub;
  if (Object.keys(event.call.args).length === 0 && stub?.kind === "file") {
    return `path=${stub.path}`;
  }
  return canonicalJson(event.call.args);
}

/** The subject of a non-command call, and whether it alone determines the call. */
function subjectOf(event: ToolEvent): { subject: string; complete: boolean } {
  const args = event.call.args;
  const keys = Object.keys(args);
  const shown = (text: string, used: readonly string[]) => {
    const subject = cut(sanitizeInline(text), SUBJECT_CHARS);
    const complete = subject === text && subject.length <= MIN_SUBJECT_WIDTH &&
      keys.every((key) => used.includes(key));
    return { subject, complete };
  };
  if (typeof args.pattern === "string" && typeof args.path === "string") {
    return { ...shown(`${args.pattern} in ${args.path}`, ["pattern", "path"]), complete: false };
  }
  for (const key of SUBJECT_ARGS) {
    const value = args[key];
    if (!textArg(value)) continue;
    // An action is shown with what it was done with (`memory`: `add batch 6 settles in units`).
    const object = key === "action"
      ? ACTION_OBJECT_ARGS.find((name) => textArg(args[name]))
      : undefined;
    return object === undefined
      ? shown(value, [key])
      : shown(`${value} ${args[object]}`, [key, object]);
  }
  const stub = event.outcome.stub;
  if (stub?.kind === "file") return shown(stub.path, keys);
  const text = event.call.argsText;
  if (text === "" || text === "{}") return { subject: "", complete: keys.length === 0 };
  return { subject: cut(sanitizeInline(text), SUBJECT_CHARS), complete: false };
}
