/**
 * Windows for the anchor index parity test: generated sessions of many sizes plus hand-made
 * turns aimed at each rule of Hermes's builder (Unicode word boundaries, caps, the budget,
 * repeats and ties, skipped content shapes).
 */
import { generateWindow, SeededRandom } from "../../src/sample/mod.ts";

const msg = (content: unknown, role = "tool"): Record<string, unknown> => ({ role, content });

/** `count` distinct values made by `make(i)`, one per line. */
const many = (count: number, make: (i: number) => string): string =>
  Array.from({ length: count }, (_, i) => make(i)).join("\n");

/** The section Hermes appends for these category lines. */
export const anchorSection = (...lines: string[]): string =>
  "\n\n## Anchor Index (mechanically extracted, exact)\n" + lines.join("\n") +
  "\n(Exact identifiers from the compacted region — use these verbatim, " +
  "and as session_search query anchors to recover their full context.)";

/** Small windows and the exact index Hermes builds for them (checked by the parity test too). */
export const EXPECTED_CASES: ReadonlyArray<readonly [name: string, turns: unknown, index: string]> =
  [
    ["no turns", [], ""],
    ["nothing to index", [msg("all good, nothing to see")], ""],
    [
      "one of each category",
      [
        msg("Fix #1234 on fix/login-redirect at 1a2b3c4d5e, see src/app/main.py", "user"),
        msg("ValueError: bad input in src/app/main.py\nping @alice or https://example.com/x/1"),
      ],
      anchorSection(
        "PRs/issues: #1234",
        "commits: 1a2b3c4d5e",
        "branches: fix/login-redirect",
        "files: src/app/main.py(x2)",
        "errors: ValueError: bad input in src/app/main.py",
        "handles: @alice",
        "urls: https://example.com/x/1",
      ),
    ],
    [
      "most frequent first, then most recently seen",
      [msg("#1001 #1002 #1003 #1002 #1001 #1004"), msg("#1003 #1005 #1005")],
      anchorSection("PRs/issues: #1005(x2), #1003(x2), #1001(x2), #1002(x2), #1004"),
    ],
    [
      "only non-empty string contents are read",
      [
        msg([{ type: "text", text: "#9999" }]),
        msg({ type: "multimodal", text: "#8888" }),
        msg(null),
        msg(""),
        { role: "assistant", tool_calls: [{ function: { arguments: '{"issue":"#7777"}' } }] },
        msg("#1234"),
      ],
      anchorSection("PRs/issues: #1234"),
    ],
    [
      "a non-ASCII letter is a word character next to an identifier",
      [msg("éValueError: no\ncafédeadbeef123\nValueError: sí")],
      anchorSection("errors: ValueError: sí"),
    ],
    [
      "non-ASCII digits are digits, combining marks are not word characters",
      [msg("#١٢٣٤ deadbeef000\u0301")],
      anchorSection("PRs/issues: #١٢٣٤", "commits: deadbeef000"),
    ],
    [
      "Python's whitespace, not JavaScript's",
      [msg("KeyError: sep\x1c\nOSError: bom\ufeff\nhttps://example.com/a\x85b")],
      anchorSection("errors: OSError: bom\ufeff, KeyError: sep", "urls: https://example.com/a"),
    ],
    [
      "whitespace is stripped before the trailing punctuation",
      [msg("NameError: x :\nsee https://example.com/page.")],
      anchorSection("errors: NameError: x ", "urls: https://example.com/page"),
    ],
    [
      "the session owner's handle is noise",
      [msg("@teknium @Teknium1 @alice @TEKNIUM @teknium12")],
      anchorSection("handles: @teknium12, @alice"),
    ],
    [
      "per-category cap keeps the most recent of equals",
      [msg(Array.from({ length: 130 }, (_, i) => `#${1000 + i}`).join(" "))],
      anchorSection(
        "PRs/issues: " +
          Array.from({ length: 120 }, (_, i) => `#${1129 - i}`).join(", "),
      ),
    ],
    [
      "a line of exactly the budget is kept",
      [msg(`${"a".repeat(6988)}/b.py`)],
      anchorSection(`files: ${"a".repeat(6988)}/b.py`),
    ],
    [
      "the first line over the budget ends the index",
      [msg(`#1234 ${"a".repeat(6972)}/b.py @alice`)],
      anchorSection("PRs/issues: #1234"),
    ],
    [
      "the budget counts code points",
      [msg(`${"𝐀".repeat(6988)}/b.py`)],
      anchorSection(`files: ${"𝐀".repeat(6988)}/b.py`),
    ],
  ];

/** Hand-made windows, each aimed at one rule. */
export const EDGE_WINDOWS: Readonly<Record<string, unknown>> = {
  "empty window": [],
  "only empty and non-string contents": [
    msg(""),
    msg(null),
    msg(42),
    { role: "assistant", tool_calls: [{ function: { arguments: '{"path":"src/a/b.py"}' } }] },
    msg([{ type: "text", text: "fix #1234 in src/app/main.py" }], "user"),
    msg({ type: "multimodal", parts: [{ type: "text", text: "see fix/the-bug" }] }, "user"),
  ],
  "list content is skipped, string content read": [
    msg([{ type: "text", text: "#9999 src/skipped/file.py" }], "user"),
    msg("#1234 src/read/file.py"),
  ],
  "nothing matches": [msg("hello there, nothing to index here"), msg("")],
  "non-ASCII identifiers": [
    msg("Edited src/données/résumé.md and 日本/設定.yaml, then путь/файл.ts and ä/ö.py"),
    msg("éValueError: no (a letter before), ValueErrorx no, ValueError: sí señor"),
    msg("#١٢٣٤ is an Arabic-Indic issue number, #𝟏𝟐𝟑 a mathematical one, #123४ stops at ४"),
    msg(
      "cafédeadbeef123 no, 😀deadbeef123 yes, 𝐀deadbeef456 no, deadbeef789ü no, deadbeef000\u0301 yes",
    ),
    msg("ab\u0301c/x.py and cafe\u0301/y.py and naïve/ok.rs"),
  ],
  "Python-only whitespace": [
    msg(
      "ValueError: trailing\x85\nKeyError: file sep\x1c\nOSError: bom\ufeff\nIOError: nbsp\u00a0",
    ),
    msg("https://example.com/with\x1cseparator https://example.com/with\ufeffbom"),
    msg("TypeError: crlf line\r\nIndexError: tab\t\nNameError: ends with dot then space :"),
  ],
  "repeats and ties": [
    msg("#1001 #1002 #1003 #1002 #1001 #1004"),
    msg("#1003 #1005 #1005"),
    msg("@alice @bob @alice @carol @bob @dave"),
  ],
  "noise handles are dropped in any case": [
    msg("@teknium @alice @Teknium1 @bob @TEKNIUM @alice @bob @teknium12 @Teknium"),
  ],
  "handles, emails and dashes": [
    msg("me@github.com @ab @abc- @abc-def- @-x-y- @a1234567890123456789012345678901234567890"),
  ],
  "commits and hex-looking words": [
    msg(
      "deadbeefcafe 1234567890 #123456789 DEADBEEF123 abcdef12 " +
        "0123456789abcdef0123456789abcdef01234567 0123456789abcdef0123456789abcdef012345678 " +
        "f00dbabe99-x g00dbabe99 cafebabe12_ _cafebabe12",
    ),
  ],
  "branches": [
    msg(
      "fix/foo-bar feat/x prefix/abcdef hotfix/abc docs/READ.me ent/a_b/c chore/" + "y".repeat(70),
    ),
    msg("salvage/old-work refactor/core/parser.py fix/foo-bar"),
  ],
  "files": [
    msg("./a/b.py ../x/y.ts a.b/c.d.json path/to/file.pyc x/y.tsx /abs/path.sh a/b.md. q/w.json5"),
    msg("C:\\win\\x.py ~/home/cfg.toml pkg/mod.rs-old tests/test_x.py:12 src/app.yml,src/b.yaml"),
  ],
  "errors": [
    msg("Traceback (most recent call last):\nError alone\nXError\nKeyErrors\nExceptional\nENOSPC"),
    msg("EACCES: permission denied\nSIGKILL\nMyCustomError in x\nRuntimeError: " + "z".repeat(120)),
    msg("AssertionError: " + "😀".repeat(100)),
  ],
  "urls": [
    msg(
      "http://a.b https://example.com/path) https://example.com/'q' " +
        'https://example.com/"q" https://example.com/a,b;. http://' + "u".repeat(130),
    ),
    msg("https://example.com/😀" + "😀".repeat(120)),
  ],
  "matches do not span turns": [msg("fix/ab"), msg("cdef ValueError"), msg("#12"), msg("34")],
  "lone surrogates": [msg("src/\ud800x/y.py ValueError: \udc00 tail #1234\ud800")],
  "caps overflow": [
    msg(many(150, (i) => `#${1000 + i}`)),
    msg(many(50, (i) => (0x10000000a + i * 7919).toString(16))),
    msg(many(100, (i) => `src/pkg${i}/mod.py`)),
    msg(many(50, (i) => `@user${i}`)),
    msg(many(40, (i) => `https://example.com/page/${i}`)),
  ],
  "budget overflow stops, later categories dropped": [
    msg(many(40, (i) => `ValueError ${i}: ${"e".repeat(85)}`)),
    msg(many(80, (i) => `src/${"long".repeat(10)}/dir${i}/module.py`)),
    msg("@alice https://example.com/short-url"),
  ],
  // "files: " and a 6,993-character path make a line of exactly 7,000 characters; with the
  // 17 characters of "PRs/issues: #1234" before it, a 6,976-character path fills the budget.
  "a line of exactly the budget is kept": [msg(`${"a".repeat(6988)}/b.py`)],
  "lines that sum to exactly the budget are kept": [msg(`#1234 ${"a".repeat(6971)}/b.py`)],
  "a line one over the budget ends the index": [msg(`#1234 ${"a".repeat(6972)}/b.py @alice`)],
  "the budget counts code points, not UTF-16 units": [msg(`${"𝐀".repeat(6988)}/b.py`)],
};

/** Sizes (in tokens) of the generated windows, from a few turns to a long compaction. */
const GENERATED_SIZES = [300, 800, 2_000, 5_000, 12_000, 30_000, 75_000];

/** Generated sessions: every size with two seeds, plus a few more seeds at a middle size. */
export function generatedWindows(): Record<string, unknown> {
  const windows: Record<string, unknown> = {};
  for (const [i, targetTokens] of GENERATED_SIZES.entries()) {
    for (const seed of [i + 1, 101 + i * 37]) {
      windows[`generated seed ${seed}, ${targetTokens} tokens`] = generateWindow({
        seed,
        targetTokens,
      });
    }
  }
  for (const seed of [7, 8, 9, 10]) {
    windows[`generated seed ${seed}, 8000 tokens`] = generateWindow({ seed, targetTokens: 8_000 });
  }
  return windows;
}

/**
 * Pieces the random windows are made of: parts of every pattern, their edges (hex runs of 8, 9,
 * 40 and 41 digits, branch prefixes inside words), and characters whose class differs between
 * Python and JavaScript (non-ASCII letters and digits, combining marks, astral letters, Python-only
 * whitespace, U+FEFF).
 */
const PIECES = [
  "a",
  "f",
  "z",
  "Q",
  "_",
  "0",
  "7",
  "-",
  ".",
  "/",
  ":",
  ";",
  ",",
  "@",
  "#",
  "'",
  '"',
  ")",
  " ",
  "\n",
  "\t",
  "\r",
  "é",
  "ß",
  "日",
  "٣",
  "४",
  "\u0301",
  "𝐀",
  "𝟏",
  "😀",
  "\x85",
  "\x1c",
  "\u00a0",
  "\ufeff",
  "\u3000",
  "deadbeef",
  "cafe",
  "0123456789abcdef",
  "fix/",
  "feat/",
  "ent/",
  "prefix/",
  "docs",
  "src/",
  "app/",
  "mod",
  ".py",
  ".ts",
  ".tsx",
  ".json",
  ".pyc",
  "Error",
  "KeyError",
  "Exception",
  "Traceback",
  "ENOSPC",
  "SIGKILL",
  "http://",
  "https://",
  "example.com",
  "#1234",
  "#12",
  "@alice",
  "@teknium",
  "@Teknium1",
  "www",
];

/** `count` windows of random pieces; same seed, same windows. */
export function randomWindows(count: number, seed: number): Record<string, unknown> {
  const random = new SeededRandom(seed);
  const windows: Record<string, unknown> = {};
  for (let w = 0; w < count; w++) {
    const turns = Array.from({ length: 1 + random.int(4) }, () => {
      let content = "";
      const pieces = random.int(120);
      for (let i = 0; i < pieces; i++) content += random.pick(PIECES);
      return msg(content);
    });
    windows[`random ${seed}/${w}`] = turns;
  }
  return windows;
}
