/**
 * The error lines of a tool's output, whatever its exit code: lines a log level tags as an error
 * (`ERROR`, `FATAL`, `CRITICAL`, `PANIC`, `FAIL`, … and the same tags in other scripts, `[错误]`,
 * `[エラー]`, `ОШИБКА`, …, or `level=error`) or a test runner marks as a failed test (Jest's `●`,
 * Playwright's `✘`), the lines that name an exception as raised (the last line of a traceback,
 * pytest's `E KeyError: …`, a Rust thread's `panicked at`) and programs' reports of an error in
 * their own words (`Error: …`, `fatal: …`, a compiler's `a.c:3:1: error: …` or `a.ts(3,1): error
 * TS2345: …`, `npm ERR! …`, git's `CONFLICT (content): …`, make's and patch's `*** …`, a linker's
 * `undefined reference to`, Go's tools' `a.go:4:2: …`, a sanitizer's or Valgrind's report,
 * CTest's failed tests (`3 - Parser.Reset (Failed)`), an HTTP response's error status, and the shell's or a runtime's report that
 * it could not run or open what it was given: `bash: pytest: command not found`, `python3: No
 * module named pytest`). A line a program colored is read as it shows. Each is known by its
 * fingerprint: the line with its numbers, hex runs and uuids masked, so the same error with other
 * ids or times is one error seen several times.
 *
 * @module
 */
import { withoutEscapes } from "./sanitize.ts";
import { headAndTail, lineAt, markedLines } from "./text_lines.ts";
import { textMemo } from "./text_memo.ts";
import { HUNK_START, hunkBodies } from "./unified_diff.ts";

/** One error line of an output, as printed (its fingerprint is {@linkcode errorFingerprint}'s). */
export interface ErrorLine {
  /** The line, trimmed, its leading timestamp and line number left out. */
  readonly text: string;
  /**
   * What makes it one: a log level's tag (`tagged`), an exception named as raised (`raised`), or
   * a program's own report in its words (`report`: `Error: …`, `fatal: …`, `npm ERR! …`).
   */
  readonly kind: "tagged" | "raised" | "report";
}

const LATIN_LEVELS =
  "ERROR|ERR|FATAL|CRITICAL|CRIT|PANIC|FAIL|FAILED|FAILURE|SEVERE|EMERG|EMERGENCY|ALERT";
// The same levels as other scripts and languages write them.
const OTHER_LEVELS = [
  "错误",
  "錯誤",
  "严重",
  "嚴重",
  "致命",
  "失败",
  "失敗",
  "エラー",
  "致命的",
  "重大",
  "오류",
  "에러",
  "치명적",
  "실패",
  "ОШИБКА",
  "Ошибка",
  "ошибка",
  "КРИТИЧЕСКАЯ",
  "FEHLER",
  "Fehler",
  "ERREUR",
  "Erreur",
  "ERRORE",
  "Errore",
  "HATA",
  "Hata",
  "BŁĄD",
  "Błąd",
  "FOUT",
  "Fout",
  "ERRO",
  "Erro",
  "خطأ",
  "שגיאה",
  "त्रुटि",
].join("|");
// A level word stands alone: after the line's start, a space, a bracket or a separator.
const BEFORE = String.raw`(?:^|[\s\[(<|:,])`;
const AFTER = String.raw`(?=$|[\s\])>|:,!-]|\.(?!\w))`;
const LATIN_TAG = new RegExp(`${BEFORE}(?:${LATIN_LEVELS})${AFTER}`, "u");
const OTHER_TAG = new RegExp(`${BEFORE}(?:${OTHER_LEVELS})${AFTER}`, "u");
const BRACKETED_TAG = /[\[<](?:error|fatal|critical|panic|fail(?:ed)?)[\]>]/i;
// nginx's levels, as it writes them (`[emerg]`; a `[Alert]` in a document is no level).
const NGINX_TAG = /\[(?:crit|emerg|alert)\]/;
// The marks test runners put before each test that failed (Jest's `● orders › rejects a
// discount over 100%`, Playwright's `✘  2 [chromium] › cart.spec.ts:40:5 › applies a coupon`):
// they tag the line as a level does.
const FAILED_TEST_MARKS = ["●", "✘"];
const FAILED_TEST = new RegExp(`^(?:${FAILED_TEST_MARKS.join("|")})\\s+\\S`);
// systemd's header of a unit's status (`● nginx.service - A high performance web server`): `●`
// for a unit loaded, whatever its state, which tags nothing; `×` for one that failed, which tags
// its line as an error.
const UNIT_FAILED = "×";
const UNIT_HEADER = new RegExp(
  `^([●${UNIT_FAILED}])\\s+\\S+\\.(?:service|socket|timer|mount|automount|swap|target|path|slice|scope)\\b`,
);
const LEVEL_KEY = /\blevel["']?\s*[=:]\s*["']?(?:error|fatal|critical|panic|err)\b/i;
// Where a level tag stands, at most this far into the line.
const TAG_HEAD = 120;
// An exception named as raised: pytest's `E` marker or summary prefix, then a (qualified) class
// name ending in Error or Exception, then `:` or the end of the line.
const RAISED_ENDS = ["Error", "Exception"];
// pytest's short summary line of a test that failed (`ERROR`: could not run): its id, then what
// it raised or asserted.
const TEST_SUMMARY = String.raw`^(?:FAILED|ERROR)\s.*?\s-\s`;
const TEST_SUMMARY_LINE = new RegExp(TEST_SUMMARY);
const RAISED = new RegExp(
  String.raw`^(?:E\s+|${TEST_SUMMARY.slice(1)})?(?:[A-Za-z_][A-Za-z0-9_]*\.)*` +
    String.raw`([A-Z][A-Za-z0-9_]*(?:${RAISED_ENDS.join("|")}))(?::|$)`,
);
// A Rust thread's panic, which names the thread (a failing test's name) and where it panicked:
// `thread 'config::tests::defaults' panicked at src/config.rs:88:9:`.
const PANICKED = "panicked at ";
const PANIC_LINE = new RegExp(`^thread '[^'\\n]{1,200}' ${PANICKED}`);
// A program's report of an error in its own words: `Error: …`, `fatal: …`, `error[E0308]: …`,
// `npm ERR! …`, git's `CONFLICT (content): Merge conflict in …`.
const REPORT_WORD = String.raw`(?:error|fatal|panic)(?:\[[^\]\n]{1,40}\])?:`;
// Reports that open with a program's own words, as it writes them: npm's and pnpm's (`npm ERR!`,
// ` ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  …`, ` ELIFECYCLE  Command failed with exit code 2.`), git's
// conflict, a race detector's (Go's `WARNING: DATA RACE`, ThreadSanitizer's).
const REPORT_OPENINGS = [
  "npm ERR!",
  "ERR_PNPM_",
  "ELIFECYCLE ",
  "CONFLICT (",
  "WARNING: DATA RACE",
  "WARNING: ThreadSanitizer: ",
  "SUMMARY: AddressSanitizer: ",
  "SUMMARY: LeakSanitizer: ",
  "SUMMARY: MemorySanitizer: ",
  "SUMMARY: UndefinedBehaviorSanitizer: ",
];
// Valgrind's report of an error it found, after the process id it writes on each line (`==12345==
// Invalid read of size 4`, `==12345== Conditional jump or move depends on uninitialised
// value(s)`): found by that id, judged without it.
const VALGRIND_REPORTS = [
  "Invalid read of size ",
  "Invalid write of size ",
  "Invalid free() ",
  "Mismatched free() ",
  "Conditional jump or move depends on uninitialised value",
  "Use of uninitialised value of size ",
  "Syscall param ",
  "Source and destination overlap in ",
];
const VALGRIND_REPORT = new RegExp(`^(?:${VALGRIND_REPORTS.map(RegExp.escape).join("|")})`);
const VALGRIND_LINE = new RegExp(
  String.raw`==\d+== (?:${VALGRIND_REPORTS.map(RegExp.escape).join("|")})`,
  "g",
);
// What a workspace's runner writes before each line a package's script printed: pnpm's package's
// folder and script (`apps/admin build: `), Turborepo's (`@acme/admin:build: `), Docker Compose's
// service (`api-1  | `).
const RUNNER_PREFIX =
  /^(?:[@\w.-]{0,100}\/[@\w./-]{0,200} [A-Za-z][\w:.-]{0,60}: |[@\w./-]{1,200}:[A-Za-z][\w-]{0,60}: |[\w.-]{1,200}-\d+ +\| )/;
// A compiler's code after the word, as tsc, C# and MSVC write it (`error TS2345: …`, `error
// CS0103: …`, `error C2065: …`) after where they place the report, which ends as one of these
// (`server.ts(18,21): `, tsc's pretty `server.ts:18:21 - `).
const COMPILER_CODE = String.raw`error [A-Z]{1,4}\d{1,6}:`;
const CODE_PLACE_ENDS = ["): ", " - "];
// Where a compiler or a checker places its report, before it (gcc's `taps.cpp:23:1: `, tsc's,
// C#'s and MSVC's `server.ts(18,21): `, tsc's pretty `server.ts:18:21 - `), then `fatal error: …`
// as gcc says it or `runtime error: …` as UndefinedBehaviorSanitizer does.
const REPORT_AT = String
  .raw`(?:[^\s:]{1,300}(?::\d+(?::\d+)?: |\(\d+(?:,\d+)?\): |:\d+:\d+ - ))?(?:fatal |runtime )?`;
const REPORT = new RegExp(
  String.raw`^${REPORT_AT}(?:(?:${REPORT_WORD}|${COMPILER_CODE})\s*\S)`,
  "i",
);
// What the Kotlin compiler reports, as Gradle prints it: `e: file:///a/X.kt:12:5 Unresolved
// reference: toMinorUnits` (older releases: `e: /a/X.kt: (12, 5): …`).
const KOTLIN_REPORT_START = String.raw`e: (?:file://)?/`;
const KOTLIN_REPORT = new RegExp(
  String.raw`^${KOTLIN_REPORT_START}\S*?\.kts?(?::\d+:\d+|: \(\d+, \d+\):) \S`,
);
// An HTTP response that reports an error (status 4xx or 5xx), as `curl -i` or `-v` prints its
// status line (`HTTP/1.1 500 Internal Server Error`, `< HTTP/2 404`; the last of them) or as a JSON
// object on one line states it with its error (`{"status":500,"error":"Internal Server Error",…}`;
// a listing's items, or an error that is null or empty, are none): `curl` without `-f` exits 0
// whatever the status.
const HTTP_STATUS = String.raw`HTTP\/[\d.]+ [45]\d\d\b`;
const JSON_STATUS = String.raw`"status(?:Code)?"\s*:\s*[45]\d\d\b`;
const JSON_ERROR = String.raw`"error"\s*:\s*(?:"[^"]|\{)`;
const HTTP_ERROR = new RegExp(
  String
    .raw`^(?:< )?${HTTP_STATUS}|^\{.*(?:${JSON_STATUS}.*${JSON_ERROR}|${JSON_ERROR}.*${JSON_STATUS})`,
);
// A response's status line: one before the last of an output (a redirect's, an authentication
// challenge's) is no answer of the request's.
const STATUS_LINE = /^(?:< )?HTTP\/[\d.]+ \d{3}\b/m;
// OpenSSL's report of an error, after the thread it names (`40E7C8A1F27F0000:error:0A000410:SSL
// routines:…:sslv3 alert handshake failure:…`).
const OPENSSL_ERROR = /^[0-9A-Fa-f]+:error:[0-9A-Fa-f]{8}:/;
// CTest's line for a test that failed, in the list it ends with (`  3 - Parser.Resets (Failed)`,
// `  7 - io.Load (SEGFAULT)`), and what every such line holds.
const CTEST_FAILURES = [
  "Failed",
  "SEGFAULT",
  "Timeout",
  "Subprocess aborted",
  "Child aborted",
  "Exception",
  "Not Run",
];
const CTEST_FAILED_MARK = String.raw` \((?:${CTEST_FAILURES.join("|")})\)`;
const CTEST_FAILED = new RegExp(String.raw`^\d+ - \S+${CTEST_FAILED_MARK}(?:\s.*)?$`);
// What the Go compiler and checkers report, after the place in a Go file (`checker_test.go:41:18:
// undefined: errRedisNotConfigured`, a linter's `handlers.go:112:12: Error return value … not
// checked (errcheck)`).
const GO_PLACE = String.raw`\.go:\d+:\d+: `;
const GO_REPORT = new RegExp(String.raw`^[^\s:]+${GO_PLACE}\S`);
// A linker's report of a symbol nothing defines: `/usr/bin/ld: a.o: in function 'main': undefined
// reference to 'design_lowpass(double)'` (read among an output's last lines, as `collect2` ends it).
const UNDEFINED = ": undefined reference to ";
const UNDEFINED_REPORT = new RegExp(`${RegExp.escape(UNDEFINED)}[\`'‘"]`);
const REPORT_OPENING = new RegExp(`^(?:${REPORT_OPENINGS.map(RegExp.escape).join("|")})`);
// What the shell, a runtime or a tool prints when it could not run or open what it was given,
// ending its line after the names that say who reports it and about what: `bash: pytest: command
// not found`, `sh: 1: tox: not found`, `/usr/bin/python3: No module named pytest`, `cat: a.txt: No
// such file or directory`, `python: can't open file 'x.py': [Errno 2] No such file or directory`.
// A command piped into `head` or `tail` exits 0 whatever it printed: such a line is then the only
// sign that the work never ran. Such a report (and make's and patch's) is read among an output's
// last lines.
const UNRUN_ENDINGS = [
  "No module named",
  "command not found",
  "not found",
  "No such file or directory",
  "Permission denied",
  "Is a directory",
  "Not a directory",
  "Operation not permitted",
  "cannot execute binary file",
];
// The names that say who reports it end with `: `, and `[Errno N]` may come before the ending.
const UNRUN_ENDING = String.raw`: (?:\[Errno \d+\] )?(?:${
  UNRUN_ENDINGS.map(RegExp.escape).join("|")
})`;
const UNRUN = new RegExp(
  String.raw`^(?:[^\s:][^:\n]{0,200}: )*[^\s:][^:\n]{0,200}${UNRUN_ENDING}(?: \S+)?$`,
);
// make's report of a recipe or rule that failed, patch's of a patch it could not apply, each
// followed by what stopped it: `make: *** [Makefile:3: all] Error 2`, `patch: **** malformed …`;
// and make's of a recipe that failed and went on, its failure ignored (`-` before the recipe):
// `make: [Makefile:23: proto] Error 1 (ignored)`.
const STOPPED = ": ***";
const IGNORED = " (ignored)";
const MAKE = String.raw`g?make(?:\[\d+\])?`;
const IGNORED_FAILURE = String.raw`^${MAKE}: \[.*\] Error \d+${RegExp.escape(IGNORED)}$`;
const STOP_REPORT = new RegExp(
  String.raw`^(?:${MAKE}|patch)${RegExp.escape(STOPPED)}\*? |${IGNORED_FAILURE}`,
);
// Timestamps, syslog prefixes (the host and the program with its process id after the time, as
// journalctl writes them: `Mar 14 11:02:03 web01 gunicorn[4242]: `), line numbers (read_file's
// `12|`, `grep -n`'s `12:` before words or a date) and the process id a sanitizer or Valgrind
// writes first (`==48377==`) before the words of a line.
const LEAD =
  /^(?:\s*\d+\||\d+:(?=\d{4}-\d\d-\d\d|\D)|==\d+==)?\s*(?:\[?\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)?\]?\s+|\[?\d\d:\d\d:\d\d(?:[.,]\d+)?\]?\s+|[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d\s+(?:\S+ [\w.@/-]+\[\d+\]: )?)?/;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX = /\b(?:0x[0-9a-f]+|(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,})\b/gi;
// A number that stands for a value: not the digits a name or a code ends with (`TS2345`,
// `E0308`, `max_retries_3`, `test_search_2`), which tell errors apart.
const NUMBER = /(?<!\w)\d+/g;
// An id that starts with a digit and holds letters (Sidekiq's `tid=4b3`, a request's `9f1e2a`
// too short for a hex run): a value, whole. Numbers, hex runs and such ids are masked alike: a
// random id may be any of them.
const DIGIT_ID = /(?<!\w)\d+[A-Za-z]\w*/g;
const NOT_ASCII = /[^\p{ASCII}]/u;

// What a line must hold to be an error line of some kind, derived from the rules above: a level
// word or a report's opening as written (upper case, or one of another language), an exception's
// name as `RAISED` ends it, or one of the forms written in any case (a bracketed level, `level=`,
// a report's `error:`). The marks written in one case share one pass over a text; each form
// written in any case has a pass of its own (cheaper than one pass for all of them); a level of
// another script is found by its first character beyond ASCII. A word that holds another word
// looked for as written (`ERROR` holds `ERR`) is found by that one, so it is not looked for.
const [ASCII_OTHER_LEVELS, SCRIPT_LEVELS] = [false, true].map((beyond) =>
  OTHER_LEVELS.split("|").filter((level) => NOT_ASCII.test(level) === beyond)
) as [string[], string[]];
const SCRIPT_STARTS = new Set([
  ...SCRIPT_LEVELS.map((level) => [...level].find((char) => NOT_ASCII.test(char)) as string),
  ...FAILED_TEST_MARKS,
  UNIT_FAILED,
]);
const WRITTEN_MARKS = [...LATIN_LEVELS.split("|"), ...ASCII_OTHER_LEVELS, ...REPORT_OPENINGS];
const heldBy = (word: string, words: readonly string[]) =>
  words.some((other) => other !== word && word.includes(other));
const MARKS = [
  // The words as written, and a raised exception's name where it ends its line or comes before
  // `:` (`fmt.Errorf(` is none): both written in one case, so one pass finds both.
  new RegExp(
    [
      ...WRITTEN_MARKS.filter((word) => !heldBy(word, WRITTEN_MARKS)).map(RegExp.escape),
      String.raw`(?:${
        RAISED_ENDS.filter((end) => !heldBy(end, WRITTEN_MARKS)).join("|")
      })(?::|[^\S\n]*$)`,
    ].join("|"),
    "gm",
  ),
  ...[`${BRACKETED_TAG.source}|${NGINX_TAG.source}`, "level", `${REPORT_WORD}|${PANICKED}`].map((
    source,
  ) => new RegExp(source, "gi")),
  new RegExp(`[${[...SCRIPT_STARTS].join("")}]`, "g"),
];
// The reports that work could not run, make's and patch's, a linker's, Go's tools', the Kotlin
// compiler's and the compilers that write a code after the word end what a command printed: they
// are looked for in its last lines only (a pass over every output for them would cost as much as
// any other).
const LAST_REPORT_MARK = new RegExp(
  [
    UNRUN_ENDING,
    RegExp.escape(STOPPED),
    RegExp.escape(IGNORED),
    RegExp.escape(UNDEFINED),
    GO_PLACE,
    KOTLIN_REPORT_START,
    CTEST_FAILED_MARK,
    ...CODE_PLACE_ENDS.map((end) => RegExp.escape(`${end}error `)),
  ].join("|"),
  "g",
);
const LAST_REPORT_CHARS = 4000;
// Marks of lines few outputs hold, each with words one of which an output that holds them holds:
// their passes run over those outputs only (a pass over every output costs as much as any other).
// Valgrind's reports (after its banner or before its summary), an HTTP response's error status.
const RARE_MARKS: ReadonlyArray<{ readonly mark: RegExp; readonly held: readonly string[] }> = [
  { mark: VALGRIND_LINE, held: ["== Memcheck, ", "== ERROR SUMMARY: "] },
  { mark: new RegExp(`${HTTP_STATUS}|${JSON_STATUS}`, "g"), held: ["HTTP/", '"status'] },
];
const EVERY_MARK = [...MARKS, LAST_REPORT_MARK];

// How much of an output is read: its head and its tail.
const HEAD_CHARS = 512 * 1024;
const TAIL_CHARS = 512 * 1024;
// The most error lines one output contributes.
const MOST_LINES = 2_000;

/**
 * The lines of `output` that may be error lines, in order (the text read, and where each starts):
 * those holding a mark of one, but the lines of a diff's hunks (code added, removed or around a
 * change, not what a program reported).
 */
function candidateLines(output: string): { text: string; starts: number[] } {
  // Lines a program colored are read as they show.
  const text = withoutEscapes(headAndTail(output, HEAD_CHARS, TAIL_CHARS));
  // Each mark's pass finds line starts in order; most find none, so few lists are merged.
  let starts: number[] = [];
  const marks = [
    ...EVERY_MARK,
    ...RARE_MARKS.filter(({ held }) => held.some((said) => text.includes(said)))
      .map(({ mark }) => mark),
  ];
  for (const mark of marks) {
    const from = mark === LAST_REPORT_MARK ? Math.max(0, text.length - LAST_REPORT_CHARS) : 0;
    const found = markedLines(text, mark, from);
    if (found.length > 0) starts = starts.length === 0 ? found : mergedStarts(starts, found);
  }
  if (starts.length > 0 && text.includes(HUNK_START)) starts = outsideHunks(text, starts);
  return { text, starts };
}

// The line after a compiler's or linter's report that says where the error is: rustc's and
// Ruff's `  --> src/lib.rs:12:5`, miette's `  ╭─[src/main.rs:3:1]`.
const LOCATION_LINE = /^\s*(?:-->\s|╭─\[).*\S:\d+(?::\d+)?\]?\s*$/;
// A JavaScript runtime's first frame after an error it raised, which places it by line and
// column: `    at parse (file:///a.ts:3:7)` (a JVM's frames, by line only, are mostly the test
// framework's: `at org.junit…AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)`).
const FRAME_LINE = /^\s+at\s.*\S:\d+:\d+\)?\s*$/;
// A line of source code a compiler or a linter quotes under its report, in its numbered gutter
// (rustc's and Clippy's `205 |     None => return ExitCode::FAILURE,`, gcc's, a code frame's
// `> 12 |`): the program's code, whatever words it holds.
const SOURCE_QUOTE = /^\s*(?:>\s*)?\d+\s+\|(?:\s|$)/;
// What rustc says of the code its report points at, under the carets that mark it (`|     ^^^^
// expected \`i64\`, found \`u64\``, after the dashes that mark other code), read up to this many
// lines after where the report is.
const POINTED_LABEL = /^\s*(?:\d+\s+)?\|[\s|-]*\^+\s+(\S.*)$/;
const LABEL_LINES = 8;
// An exception named alone before its message, which the next line gives (RSpec's `NoMethodError:`
// over its indented `undefined method 'overdue?' for …`).
const BARE_RAISED = /^[\w:.]+:$/;
// A failing Go test's first message, indented under its `--- FAIL: TestName (0.30s)` line, where
// its test file says it (`    backoff_test.go:42: attempts = 4, want 3`).
const GO_TEST_FAILED = /^\s*--- FAIL: \S/;
const GO_TEST_MESSAGE = /^\s+[\w.-]+_test\.go:\d+: \S/;
// Valgrind's first frame under its report, the place it found the error (`==12345==    at
// 0x10915A: checksum (checksum.cpp:11)`).
const VALGRIND_FRAME = /^==\d+==\s+at 0x[0-9A-Fa-f]+: .*\(\S+:\d+\)$/;

/**
 * The line of `text` after `line` (the error line starting at `start`) that goes with it: where
 * the error a program reported is (with what rustc's carets there say of the code, or Valgrind's
 * first frame), the frame an exception was raised in (a line a log level or a test runner tagged
 * takes none), a failing Go test's first message, or the message of a Rust panic or an exception
 * whose line ends before it (`thread 'main' panicked at src/a.rs:3:9:`, RSpec's `NoMethodError:`).
 */
function continuationOf(text: string, start: number, line: ErrorLine): string | undefined {
  const end = text.indexOf("\n", start);
  if (end === -1) return undefined;
  const next = lineAt(text, end + 1);
  const panic = PANIC_LINE.test(line.text);
  if (line.kind === "report" && LOCATION_LINE.test(next)) {
    const label = pointedLabel(text, end + 1);
    return label === undefined ? next.trim() : `${next.trim()} ${label}`;
  }
  const place = line.kind === "report"
    ? FRAME_LINE.test(next)
    : line.kind === "raised" && !panic && FRAME_LINE.test(next);
  if (VALGRIND_REPORT.test(line.text) && VALGRIND_FRAME.test(next.trim())) {
    return next.trim().replace(LEAD, "").trim();
  }
  if (place || (GO_TEST_FAILED.test(line.text) && GO_TEST_MESSAGE.test(next))) return next.trim();
  // A line of its own (an output filtered down to its error lines) is no panic's message, nor an
  // exception's.
  const opens = panic
    ? line.text.endsWith(":")
    : line.kind === "raised" && BARE_RAISED.test(line.text);
  const message = opens && next.trim() !== "" && errorLineOf(next) === undefined;
  return message ? next.trim() : undefined;
}

/**
 * What rustc's carets point at under the report whose place is the line at `from`: the label of
 * the first line of carets among the next few, before a blank line ends the report's code.
 */
function pointedLabel(text: string, from: number): string | undefined {
  let at = text.indexOf("\n", from);
  for (let read = 0; read < LABEL_LINES && at !== -1; read++) {
    const line = lineAt(text, at + 1);
    if (line.trim() === "") return undefined;
    const label = POINTED_LABEL.exec(line)?.[1];
    if (label !== undefined) return label.trim();
    at = text.indexOf("\n", at + 1);
  }
  return undefined;
}

/** Of ascending line starts, those outside the bodies of the diff hunks of `text`. */
function outsideHunks(text: string, starts: readonly number[]): number[] {
  const bodies = hunkBodies(text);
  // Both lists ascend: each start is held against the first body that does not end before it.
  let body = 0;
  return starts.filter((start) => {
    while (body < bodies.length && (bodies[body] as [number, number])[1] <= start) body++;
    const [from, to] = bodies[body] ?? [Infinity, Infinity];
    return start < from || start >= to;
  });
}

/** Two ascending lists of line starts as one, each start once. */
function mergedStarts(first: readonly number[], second: readonly number[]): number[] {
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length || j < second.length) {
    const a = first[i] ?? Infinity;
    const b = second[j] ?? Infinity;
    merged.push(Math.min(a, b));
    if (a <= b) i++;
    if (b <= a) j++;
  }
  return merged;
}

/**
 * Whether `line` is tagged as an error by a log level (an upper-case level word, one of another
 * script, a bracketed one in any case, or `level=error`) near its start, by a test runner's mark of
 * a failed test, or by systemd's mark of a unit that failed (`× nginx.service - …`; its `●` of a
 * unit loaded is none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isTaggedError } from "./error_lines.ts";
 * assert.ok(isTaggedError("2026-12-01 10:00:01 ERROR payment declined order=A-1204"));
 * assert.ok(isTaggedError("[错误] 支付失败 订单 B-77"));
 * assert.ok(!isTaggedError("error handling is in errors.py"));
 * assert.ok(!isTaggedError("ERROR_CODES = {1: 'x'}"));
 * assert.ok(!isTaggedError("● nginx.service - A high performance web server"));
 * assert.ok(isTaggedError("× nginx.service - A high performance web server"));
 * ```
 */
export function isTaggedError(line: string): boolean {
  const head = line.slice(0, TAG_HEAD);
  const unit = UNIT_HEADER.exec(head);
  if (unit) return unit[1] === UNIT_FAILED;
  return LATIN_TAG.test(head) || OTHER_TAG.test(head) || BRACKETED_TAG.test(head) ||
    NGINX_TAG.test(head) || LEVEL_KEY.test(head) || FAILED_TEST.test(head);
}

/**
 * The error lines of `output` in the order printed, repeats included: lines tagged by a log level,
 * lines naming an exception as raised, and programs' reports of an error in their own words. A
 * line printed after one to say where the error is (rustc's `--> src/lib.rs:12:5`) goes with it,
 * so the same report about two places is two errors; so does the message after a Rust panic's
 * line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorLines } from "./error_lines.ts";
 * const lines = errorLines("ok\n2026-12-01 10:00:01 ERROR declined order=A-1\nE   KeyError: 'sku'");
 * assert.deepEqual(lines.map((line) => line.text), ["ERROR declined order=A-1", "KeyError: 'sku'"]);
 * ```
 */
export function errorLines(output: string): ErrorLine[] {
  const found: ErrorLine[] = [];
  const { text, starts } = candidateLines(output);
  for (const start of starts) {
    if (found.length >= MOST_LINES) break;
    const line = errorLineOf(lineAt(text, start));
    if (line === undefined) continue;
    // A status line that a later one follows answered a redirect or a challenge, not the request.
    if (
      STATUS_LINE.test(line.text) &&
      STATUS_LINE.test(text.slice(text.indexOf("\n", start) + 1 || text.length))
    ) {
      continue;
    }
    const more = continuationOf(text, start, line);
    found.push(more === undefined ? line : { ...line, text: `${line.text} ${more}` });
  }
  return found;
}

/**
 * The error line `raw` (one line of an output) is, if it is one: what {@linkcode errorLines}
 * finds on it. Outputs print the same lines again, so each is judged once while remembered.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorLineOf } from "./error_lines.ts";
 * assert.deepEqual(errorLineOf("12:00:01 FATAL disk full"), { text: "FATAL disk full", kind: "tagged" });
 * assert.equal(errorLineOf("error handling is in errors.py"), undefined);
 * ```
 */
export const errorLineOf: (raw: string) => ErrorLine | undefined = textMemo(judge, 4_096, 512);

// A setting whose value is a level (`LOG_LEVEL: ERROR`, `level = "error"`, a config printed):
// no error happened.
const LEVEL_SETTING = new RegExp(`^[\\w.-]+\\s*[:=]\\s*["']?(?:${LATIN_LEVELS})["']?,?$`, "i");
// A level's tag alone (Go's closing `FAIL`) names no error: the exit status says as much.
const BARE_TAG = new RegExp(`^[\\[(<]?(?:${LATIN_LEVELS}|${OTHER_LEVELS})[\\])>:!.]?$`, "u");
// A summary that counts no errors (valgrind's `ERROR SUMMARY: 0 errors from 0 contexts`, a build's
// `0 errors, 2 warnings`) reports none, whatever tag it carries; one that counts some does.
const NO_ERRORS = /\b0 (?:tests? )?(?:errors?|failures?|failed)\b/i;
/**
 * A count of errors or failures that is not 0 (`2 errors`, `1 failed`, CTest's `1 tests failed`),
 * as summaries and test tallies state them.
 */
export const SOME_FAILURES: RegExp =
  /\b[1-9]\d*(?:,\d{3})* (?:tests? )?(?:errors?|failures?|failed|failing)\b/i;

// Maven's words after a failure on how to learn more or go on, each on an `[ERROR]` line of its
// own: no error of their own.
// How Maven tags each line of an error's report.
const MAVEN_ERROR_TAG = RegExp.escape("[ERROR] ");
const MAVEN_HELP = new RegExp(
  String.raw`^${MAVEN_ERROR_TAG}(?:-> \[Help \d+\]|\[Help \d+\] https?://\S+|${
    [
      "To see the full stack trace of the errors, re-run Maven with the -e switch.",
      "Re-run Maven using the -X switch to enable full debug logging.",
      "For more information about the errors and possible solutions, please read the following articles:",
      "After correcting the problems, you can resume the build with the command",
    ].map(RegExp.escape).join("|")
  })$`,
);
// A line that goes on with the report above it, indented under its tag (Maven's list of the
// files a check failed on and each one's diff, the command to resume with).
const CONTINUED = new RegExp(String.raw`^${MAVEN_ERROR_TAG} +\S`);

// A runner's report that a step it ran failed, which says less than the step's own report before
// it: pnpm's and npm's (`ELIFECYCLE  Command failed with exit code 2.`,
// `ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL …`, `apps/admin build: Failed`, `npm ERR! code ELIFECYCLE`),
// yarn's, make's (`make: *** [Makefile:12: build] Error 2`), cargo's (`could not compile … due to
// 2 previous errors`), just's, GitHub Actions' (`Error: Process completed with exit code 1.`),
// Gradle's (`> Task :core:test FAILED`, `FAILURE: Build failed with an exception.`,
// `BUILD FAILED`).
const RELAYED_FAILURE = new RegExp(
  [
    String.raw`^ELIFECYCLE\b`,
    String.raw`^ERR_PNPM_RECURSIVE_\w+`,
    `${RUNNER_PREFIX.source}Failed$`,
    String
      .raw`^npm (?:ERR!|error) (?:code ELIFECYCLE|errno \d|Exit status \d|Failed at the |command failed|Lifecycle script|[@\w./-]+@\S+ [\w:.-]+: )`,
    String.raw`^error Command failed with exit code \d`,
    String.raw`^${MAKE}: \*\*\* \[.*\] Error \d+$`,
    IGNORED_FAILURE,
    String.raw`^error: could not compile \S+ .*due to \d+ previous errors?`,
    String.raw`^error: Recipe \S+ failed`,
    String.raw`^Error: Process completed with exit code \d`,
    // Gradle's, after a task's own report: the task that failed, what went wrong with it, the
    // build that did.
    String.raw`^> Task \S+ FAILED$`,
    String.raw`^FAILURE: Build failed with an exception\.`,
    String.raw`^Execution failed for task '`,
    String.raw`^> A failure occurred while executing `,
    String.raw`^> Compilation error\. See log`,
    String.raw`^BUILD FAILED\b`,
    // CTest's and GoogleTest's, before or after the list of the tests that failed.
    String.raw`^The following tests FAILED:$`,
    String.raw`^\d+ FAILED TESTS?$`,
  ].join("|"),
);

/**
 * Whether an error line only relays that a step its program ran failed (a runner's exit report:
 * pnpm's `ELIFECYCLE`, make's `*** […] Error 2`, cargo's `could not compile`): the step's own
 * report, printed before it, says what failed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRelayedFailure } from "./error_lines.ts";
 * assert.ok(isRelayedFailure("ELIFECYCLE  Command failed with exit code 2."));
 * assert.ok(isRelayedFailure("make: *** [Makefile:12: build] Error 2"));
 * assert.ok(!isRelayedFailure("make: *** No rule to make target 'tset'.  Stop."));
 * ```
 */
export function isRelayedFailure(text: string): boolean {
  return RELAYED_FAILURE.test(text.trim());
}

/**
 * Whether a line of an output is part of a program's report of an error that states none of its
 * own: a level's tag alone (`[ERROR]`, Go's closing `FAIL`), Maven's help after a failure (`[ERROR]
 * -> [Help 1]`, `[ERROR] Re-run Maven using the -X switch …`) or a line indented under its tag to
 * go on with the report above it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isReportAside } from "./error_lines.ts";
 * assert.ok(isReportAside("[ERROR] -> [Help 1]"));
 * assert.ok(isReportAside("[ERROR]     src/main/java/a/Config.java"));
 * assert.ok(!isReportAside("[ERROR] Failed to execute goal … on project api: Compilation failure"));
 * ```
 */
export function isReportAside(line: string): boolean {
  const shown = withoutEscapes(line).replace(LEAD, "");
  return CONTINUED.test(shown) || MAVEN_HELP.test(shown.trimEnd()) || BARE_TAG.test(shown.trim());
}

/**
 * The error line `raw` is, if it is one; a line a workspace's runner prefixed is judged as its
 * package's script printed it (a prefix that holds a level's tag is none).
 */
function judge(raw: string): ErrorLine | undefined {
  const prefix = RUNNER_PREFIX.exec(raw)?.[0];
  return prefix === undefined || isTaggedError(prefix)
    ? judgeAsPrinted(raw)
    : judgeAsPrinted(raw.slice(prefix.length));
}

/** The error line `raw` is as it stands, if it is one. */
function judgeAsPrinted(raw: string): ErrorLine | undefined {
  if (isReportAside(raw)) return undefined;
  // A line a program colored is judged as it shows (`ERROR` in red is a level's tag).
  const shown = withoutEscapes(raw);
  if (SOURCE_QUOTE.test(shown)) return undefined;
  const line = shown.replace(LEAD, "").trim();
  if (line === "") return undefined;
  if (NO_ERRORS.test(line) && !SOME_FAILURES.test(line)) return undefined;
  if (LEVEL_SETTING.test(line)) return undefined;
  const raised = RAISED.exec(line);
  const kind = raised || PANIC_LINE.test(line)
    ? "raised"
    : isTaggedError(line)
    ? "tagged"
    : REPORT.test(line) || REPORT_OPENING.test(line) || UNRUN.test(line) ||
        STOP_REPORT.test(line) || UNDEFINED_REPORT.test(line) || GO_REPORT.test(line) ||
        KOTLIN_REPORT.test(line) || VALGRIND_REPORT.test(line) || CTEST_FAILED.test(line) ||
        HTTP_ERROR.test(line) || OPENSSL_ERROR.test(line)
    ? "report"
    : undefined;
  if (kind === undefined) return undefined;
  // A raised exception is shown from its name on (pytest's `E` marker left out).
  const text = raised && !TEST_SUMMARY_LINE.test(line)
    ? line.slice(line.indexOf(raised[1] as string))
    : line;
  return { text, kind };
}

/**
 * What a test summary line among error lines says the test raised or asserted (pytest's `FAILED
 * tests/t.py::test_x - app.KeyError: 'k'` gives `KeyError: 'k'`, the exception by its own name, as
 * an error line shows it); undefined for any other line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { testSummaryMessage } from "./error_lines.ts";
 * assert.equal(testSummaryMessage("FAILED tests/t.py::test_x - app.KeyError: 'k'"), "KeyError: 'k'");
 * assert.equal(testSummaryMessage("KeyError: 'k'"), undefined);
 * ```
 */
export function testSummaryMessage(text: string): string | undefined {
  const summary = TEST_SUMMARY_LINE.exec(text);
  if (!summary) return undefined;
  const message = text.slice(summary[0].length);
  // As an error line shows what was raised: from the exception's own name on.
  const raised = RAISED.exec(message);
  return raised ? message.slice(message.indexOf(raised[1] as string)) : message;
}

/**
 * An error line's fingerprint: its numbers, hex runs, uuids and ids that start with a digit
 * masked, a retry's mark left out, its spaces folded. The digits that end a name or a code are no
 * number (`error TS2345` and `error TS2322` differ).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorFingerprint } from "./error_lines.ts";
 * assert.equal(errorFingerprint("ERROR order A-1204 failed after 3 tries"), errorFingerprint("ERROR order A-77 failed after 12 tries"));
 * assert.notEqual(errorFingerprint("--- FAIL: TestRetry/max_retries_3"), errorFingerprint("--- FAIL: TestRetry/max_retries_0"));
 * assert.equal(errorFingerprint("✘ 10 [chromium] › a.spec.ts:9:5 › logs in (retry #1) (5.1s)"), errorFingerprint("✘ 10 [chromium] › a.spec.ts:9:5 › logs in (5.2s)"));
 * assert.equal(errorFingerprint("pid=7 tid=4b3 ERROR: mailer failed"), errorFingerprint("pid=7 tid=2hk ERROR: mailer failed"));
 * ```
 */
export function errorFingerprint(line: string): string {
  return line.replace(RETRY, "").replace(UUID, "<uuid>").replace(HEX, "<n>")
    .replace(DIGIT_ID, "<n>").replace(NUMBER, "<n>").replace(/\s+/g, " ").trim();
}

// The mark a test runner puts on a test's line when it runs it again (Playwright's `(retry #1)`):
// the same test failing again is the same error.
const RETRY = / \(retry #\d+\)/g;
