/**
 * `installPlugin(…, { activate: true })` and `uninstallPlugin` on a table of `config.yaml`
 * shapes, judged by readers that share no code with the editor: every installed Hermes release's
 * own loader and the npm `js-yaml` package. For each shape, either the install refuses and nothing in
 * Hermes's home changes, or: every reader that reads the original reads the result as the
 * original with `context.engine: vcc` and `vcc` in `plugins.enabled`, no line other than those
 * keys' lines changes, the link and mode of the file stay, uninstall gives back the original
 * bytes, and uninstall after an unrelated edit by hand keeps that edit and nothing of vcc's.
 * A refusal that says Hermes cannot read the file must agree with Hermes's loaders.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { ConfigUnreadable } from "../../src/hermes/config_errors.ts";
import { installPlugin, uninstallPlugin } from "../../src/hermes/install.ts";
import { INSTALLED_LISTING_PATH } from "../../src/hermes/installed_releases.ts";
import { type ConfigReader, hermesReaders, jsYamlReader, type Reading } from "./config_readers.ts";

/** What the install must do with a shape. */
type Expect =
  /** Change the two keys. */
  | "edit"
  /** Leave the file as it is: it selects vcc already. */
  | "unchanged"
  /** Refuse, saying this. */
  | { readonly refused: RegExp };

interface Shape {
  readonly name: string;
  /** The bytes of `config.yaml`; absent for a home without one. */
  readonly bytes?: Uint8Array;
  /** How `config.yaml` sits in Hermes's home, when not as a plain writable file. */
  readonly placement?:
    | "symlink"
    | "read-only"
    | "dangling symlink"
    | "another owner"
    | "hard link";
  readonly expect: Expect;
}

const BOM = "\ufeff";

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** A config as Hermes writes it and people edit it: comments, nested blocks, both plugin lists. */
const STOCK = [
  "# Hermes Agent configuration (edited by hand)",
  "model:",
  "  default: qwen3-27b   # local llama.cpp",
  "  context_length: 98000",
  "",
  "context:",
  "  engine: compressor  # built-in summary",
  "",
  "compression:",
  "  threshold: 0.75",
  "plugins:",
  "  enabled:",
  "  - weather",
  "  disabled: []",
  "# end of file",
  "",
];

const stock = STOCK.join("\n");

function shape(name: string, text: string | undefined, expect: Expect = "edit"): Shape {
  return { name, expect, ...(text !== undefined && { bytes: utf8(text) }) };
}

function refused(pattern: RegExp): Expect {
  return { refused: pattern };
}

const SHAPES: readonly Shape[] = [
  shape("no config.yaml", undefined),
  shape("empty file", ""),
  shape("comments only", "# nothing set yet\n# still nothing\n"),
  shape("blank lines only", "\n\n"),
  shape("no newline at the end", "model:\n  default: x"),
  shape("Hermes's layout with comments", stock),
  shape(
    "tabs in comments",
    "#\tsettings\nmodel: x\t# tab before a comment\ncontext:\n  engine: compressor\t#\tbuilt-in\n",
    refused(/a tab on line 2 outside a comment or quoted text, which Hermes on Python 3\.14/),
  ),
  shape(
    "tabs only in comments, quoted text and block scalar text",
    "#\tsettings\nmodel: \"qwen3\t27b\"  #\tlocal\nname: 'a\tb'\nnotes: |\n  keep\tthis\n  \tand this\n" +
      "context:\n  engine: compressor  #\tbuilt-in\n",
  ),
  shape("a tab inside an unquoted value", "model: qwen3\t27b\n", {
    refused: /a tab inside unquoted text on line 1.*; put that text in quotes/,
  }),
  shape("a tab ending a line", "model: x\t\n", refused(/a tab on line 1 outside/)),
  shape("a tab after a key's colon", "model:\tx\n", refused(/a tab on line 1 outside/)),
  shape("a tab on a blank line", "model: x\n\t\ncontext: {}\n", refused(/a tab on line 2/)),
  shape("a tab before a comment on its own line", "model:\n  default: x\n  \t# note\n", {
    refused: /a tab on line 3 outside/,
  }),
  shape("a tab after a flow list", "plugins:\n  enabled: [weather]\t# mine\n", {
    refused: /a tab on line 2 outside/,
  }),
  shape("tabs between the items of a flow list", "plugins:\n  enabled: [\tweather,\tsearch\t]\n"),
  shape("a tab right after a tag", "model: [!!str\tx]\n", refused(/a tab on line 1 outside/)),
  shape(
    "a block scalar starting with a tab",
    "notes: |\n  \tindented\ncontext:\n  engine: compressor\n",
    refused(
      /which hermes-agent 0\.19 cannot read.*; change the block scalar's header from \| to \|2/,
    ),
  ),
  shape(
    "a block scalar with an indentation indicator, starting with a tab",
    "notes: |2\n  \tindented\ncontext:\n  engine: compressor\n",
  ),
  shape("a tab indenting a flow list's closing bracket", "model:\n  tags: [\n    a\n\t]\n", {
    refused: /a tab indenting line 4 inside \[ \] or \{ \}, which hermes-agent 0\.19/,
  }),
  shape("a tab after ---", "---\t\nmodel: x\n", refused(/a tab on line 1 outside/)),
  shape("a tab in the %YAML directive", "%YAML\t1.1\n---\nmodel: x\n", {
    refused: /a tab on line 1 outside/,
  }),
  shape(
    "quoted keys and values",
    `"context":\n  'engine': "compressor"\n'plugins':\n  "enabled": ['weather', "search"]\n`,
  ),
  shape("context without engine", "context:\n  memory_trim:\n    enabled: true\n  max: 4000\n"),
  shape("context: {}", "context: {}\nmodel: x\n"),
  shape("context as a one-line flow mapping", "context: {engine: compressor, max: 4000}  # c\n"),
  shape("context as a flow mapping over lines", "context: {\n  engine: compressor\n}\n", {
    refused: /context is a flow collection written over several lines/,
  }),
  shape("context: ~ with a comment", "context: ~  # later\nmodel: x\n"),
  shape("context: with nothing after it", "context:\nmodel: x\n"),
  shape("context is a list", "context: [a]\n", refused(/context is not a mapping/)),
  shape("engine on the line after its key", "context:\n  engine:\n    compressor\n"),
  shape("engine as a block scalar", "context:\n  engine: |\n    compressor\n", {
    refused: /context.engine is written over several lines or as a block scalar/,
  }),
  shape("another engine selected", "context:\n  engine: lcm\nplugins:\n  enabled: [lcm]\n"),
  shape(
    "vcc selected and enabled already",
    "context:\n  engine: vcc\nplugins:\n  enabled:\n  - vcc\n",
    "unchanged",
  ),
  shape("plugins.enabled as a flow list", "plugins:\n  enabled: [weather, 'search']  # mine\n"),
  shape("plugins.enabled with a trailing comma", "plugins:\n  enabled: [weather, search,]\n"),
  shape("plugins.enabled as a block list", "plugins:\n  enabled:\n    - weather  # tool\n"),
  shape("plugins.enabled absent", "plugins:\n  disabled: []\n"),
  shape("plugins.enabled with nothing after it", "plugins:\n  enabled:\n  disabled: []\n"),
  shape("plugins.enabled: ~", "plugins:\n  enabled: ~\n"),
  shape("plugins.enabled: []", "plugins:\n  enabled: []\n"),
  shape("plugins.enabled holds mappings", "plugins:\n  enabled:\n  - name: x\n", {
    refused: /plugins.enabled holds something other than names/,
  }),
  shape("plugins.enabled is one name", "plugins:\n  enabled: weather\n", {
    refused: /plugins.enabled is not a list/,
  }),
  shape("plugins.disabled lists vcc", "plugins:\n  disabled: [vcc]\n", {
    refused: /plugins.disabled lists vcc/,
  }),
  shape(
    "indented by 4",
    "model:\n    default: x\ncontext:\n    max: 1\nplugins:\n    enabled:\n        - weather\n",
  ),
  shape("top-level keys indented by 2", "  model: x\n  context:\n    engine: compressor\n"),
  shape("CRLF line ends", stock.replaceAll("\n", "\r\n")),
  shape(
    "mixed CRLF and LF line ends",
    STOCK.map((line, i) => `${line}${i % 2 === 0 ? "\r\n" : "\n"}`).join("").slice(0, -2),
  ),
  shape("lone CR line ends", "model: x\rcontext:\r  engine: compressor\r"),
  shape("UTF-8 byte order mark", `${BOM}${stock}`),
  shape("byte order mark before a file without the keys", `${BOM}model:\n  default: x\n`),
  shape("--- document start", "---\nmodel: x\n"),
  shape("... document end", "model: x\n...\n"),
  shape("--- and ... with comments around", "# top\n--- # start\nmodel: x\n... # end\n# tail\n"),
  shape("%YAML directive", "%YAML 1.1\n---\nmodel: x\n"),
  shape("two documents", "model: x\n---\nmodel: y\n", refused(/a second YAML document/)),
  {
    name: "Latin-1 byte in a comment",
    bytes: Uint8Array.of(...utf8("# caf"), 0xe9, ...utf8("\nmodel: x\n")),
    expect: refused(/byte 0xE9 on line 1 is not UTF-8/),
  },
  shape(
    "context written twice",
    "context:\n  engine: compressor\nmodel: x\ncontext:\n  max: 1\n",
    refused(/the key context is written twice/),
  ),
  shape(
    "another key written twice",
    "model: x\nmodel: y\n",
    refused(/the key model is written twice/),
  ),
  shape(
    "an alias to no anchor",
    "model: x\nother: [*nowhere]\ncontext:\n  engine: compressor\n",
    refused(/the alias \*nowhere on line 2 names no anchor set before it/),
  ),
  shape(
    "anchors, aliases and a merge key elsewhere",
    "base: &b {a: 1}\nother: *b\nmodel:\n  <<: *b\n  b: 2\ncontext:\n  engine: compressor\n",
  ),
  shape("context is an alias", "base: &b {engine: x}\ncontext: *b\n", refused(/alias/)),
  shape(
    "context merges an anchor",
    "base: &b {x: 1}\ncontext:\n  <<: *b\n  engine: compressor\n",
    refused(/context uses a merge key/),
  ),
  shape("engine carries an anchor", "context:\n  engine: &e compressor\nother: *e\n", {
    refused: /context.engine carries an anchor/,
  }),
  shape("context carries a tag", "context: !!map\n  engine: compressor\n", {
    refused: /context carries a tag/,
  }),
  shape("the top level is a list", "- a\n- b\n", refused(/not a mapping/)),
  shape("the top level in flow style", "{model: x}\n", refused(/not a block of keys/)),
  shape("a tab indents a key", "model:\n\tdefault: x\n", refused(/[Tt]ab/)),
  shape("U+2028 ending a comment", "model: x  # note\u2028\n", refused(/U\+2028/)),
  shape("NEL ending a comment", "model: x  # note\u0085\n", refused(/U\+0085/)),
  shape("U+2028 splitting a comment", "# a\u2028b\nmodel: x\n", refused(/\(line 1\)/)),
  shape("block scalar keeping its trailing lines, last", "notes: |+\n  keep\n\n\n# end\n"),
  shape("YAML 1.1 scalars", "on: yes\nmode: 0755\nwhen: 2024-01-02\nratio: 1:30\n"),
  shape(
    "very long lines",
    `model: ${"x".repeat(20_000)}\ncontext:\n  engine: compressor  # ${"y".repeat(20_000)}\n`,
  ),
  shape("Unicode keys and values", '模型: 値\n"ключ": «значение» # 🎉\ncontext:\n  engine: 压缩\n'),
  { name: "symlinked config.yaml", bytes: utf8(stock), placement: "symlink", expect: "edit" },
  {
    name: "config.yaml of another user",
    bytes: utf8(stock),
    placement: "another owner",
    expect: "edit",
  },
  {
    name: "read-only config.yaml",
    bytes: utf8(stock),
    placement: "read-only",
    expect: refused(/is read-only \(mode 0444\)/),
  },
  {
    name: "hard-linked config.yaml",
    bytes: utf8(stock),
    placement: "hard link",
    expect: refused(/has 2 hard links/),
  },
  {
    name: "config.yaml links to nothing",
    placement: "dangling symlink",
    expect: refused(/is a symbolic link to .*, which does not exist/),
  },
];

/** A line `uninstall` must keep through the round trip after an edit by hand. */
const EDIT_BY_HAND = utf8("# edited by hand\n");
const NOW = new Date("2026-01-02T03:04:05Z");
const OPTIONS = { activate: true, command: ["vcc"], now: NOW };

/** What the install and uninstall did with one shape. */
interface Outcome {
  readonly refusal?: Error;
  /** Entries of Hermes's home and of the linked file's directory, before and after a refusal. */
  readonly listings: readonly [string[], string[]];
  /** `config.yaml`'s bytes as found, after the install, after the uninstall. */
  readonly before?: Uint8Array;
  readonly installed?: Uint8Array;
  readonly uninstalled?: Uint8Array;
  /** After install, an edit by hand (a comment line first), then uninstall. */
  readonly uninstalledAfterEdit?: Uint8Array;
  readonly pluginLeft: boolean;
  /** Whether `config.yaml` is still the same link, and the file keeps its mode and owner. */
  readonly linkKept: boolean;
  readonly modeKept: boolean;
}

async function bytesOf(path: string): Promise<Uint8Array | undefined> {
  return await Deno.readFile(path).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
}

async function listing(...directories: string[]): Promise<string[]> {
  const names: string[] = [];
  for (const directory of directories) {
    for await (const entry of Deno.readDir(directory)) names.push(`${directory}/${entry.name}`);
  }
  return names.sort();
}

/** `bytes` with `inserted` after their byte order mark, if any. */
function afterBom(bytes: Uint8Array | undefined, inserted: Uint8Array): Uint8Array {
  const original = bytes ?? new Uint8Array();
  const bom = original[0] === 0xef && original[1] === 0xbb && original[2] === 0xbf ? 3 : 0;
  return Uint8Array.of(...original.subarray(0, bom), ...inserted, ...original.subarray(bom));
}

async function runShape(shape: Shape, home: string, elsewhere: string): Promise<Outcome> {
  await Deno.mkdir(home);
  await Deno.mkdir(elsewhere);
  const config = join(home, "config.yaml");
  const linked = shape.placement === "symlink" || shape.placement === "dangling symlink";
  const target = linked ? join(elsewhere, "hermes.yaml") : config;
  if (shape.bytes) await Deno.writeFile(target, shape.bytes, { mode: 0o640 });
  if (linked) await Deno.symlink(target, config);
  if (shape.placement === "read-only") await Deno.chmod(target, 0o444);
  if (shape.placement === "hard link") await Deno.link(target, join(elsewhere, "same.yaml"));
  // Only root can give a file away (CI runs as root); elsewhere this shape is a plain file.
  if (shape.placement === "another owner") await Deno.chown(target, 4242, 4242).catch(() => {});
  const mode = async () => {
    const info = await Deno.stat(target).catch(() => undefined);
    return info && `${info.mode} ${info.uid} ${info.gid}`;
  };
  const link = async () =>
    linked ? await Deno.readLink(config).catch(() => "(no longer a link)") : undefined;
  const [modeBefore, linkBefore] = [await mode(), await link()];
  const listed = await listing(home, elsewhere);
  try {
    await installPlugin(home, OPTIONS);
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return {
      refusal: error,
      listings: [listed, await listing(home, elsewhere)],
      ...(shape.bytes && { before: shape.bytes }),
      ...(await bytesOf(target).then((bytes) => bytes && { installed: bytes })),
      pluginLeft: false,
      linkKept: await link() === linkBefore,
      modeKept: await mode() === modeBefore,
    };
  }
  const installed = await bytesOf(target);
  const linkKept = await link() === linkBefore;
  const modeKept = shape.bytes === undefined || await mode() === modeBefore;
  await uninstallPlugin(home, NOW);
  const uninstalled = await bytesOf(target);
  const pluginLeft = (await Deno.stat(join(home, "plugins", "vcc")).catch(() => undefined)) !==
    undefined;
  await installPlugin(home, OPTIONS);
  await Deno.writeFile(config, afterBom(await bytesOf(config), EDIT_BY_HAND));
  await uninstallPlugin(home, NOW);
  return {
    listings: [listed, listed],
    ...(shape.bytes && { before: shape.bytes }),
    ...(installed && { installed }),
    ...(uninstalled && { uninstalled }),
    uninstalledAfterEdit: (await bytesOf(target))!,
    pluginLeft,
    linkKept,
    modeKept,
  };
}

/** The settings Hermes should see after activation, given those it saw before. */
function activated(before: unknown): unknown {
  const mapping = (value: unknown) =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Record<string, unknown>
      : {};
  const settings = mapping(before);
  const plugins = mapping(settings.plugins);
  const enabled = Array.isArray(plugins.enabled) ? plugins.enabled : [];
  return {
    ...settings,
    context: { ...mapping(settings.context), engine: "vcc" },
    plugins: { ...plugins, enabled: enabled.includes("vcc") ? enabled : [...enabled, "vcc"] },
  };
}

/** Lines (with their terminators) of `before` missing from `after`, and those added. */
function lineDiff(before: Uint8Array, after: Uint8Array): { removed: string[]; added: string[] } {
  const lines = (bytes: Uint8Array) =>
    new TextDecoder("latin1").decode(bytes).match(/[^\r\n]*(?:\r\n|\r|\n|$)/g)!.filter((line) =>
      line !== ""
    );
  const [a, b] = [lines(before), lines(after)];
  const common = Array.from(
    { length: a.length + 1 },
    () => new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i]![j] = a[i] === b[j]
        ? common[i + 1]![j + 1]! + 1
        : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const removed: string[] = [];
  const added: string[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) [i, j] = [i + 1, j + 1];
    else if (j < b.length && (i === a.length || common[i]![j + 1]! >= common[i + 1]![j]!)) {
      added.push(b[j++]!);
    } else removed.push(a[i++]!);
  }
  return { removed, added };
}

/** What a line vcc adds or rewrites holds: a key of its own, vcc, or the engine it replaces. */
const OUR_KEYS = /context|engine|plugins|enabled|vcc|compressor/;

function checkRefusal(shape: Shape, outcome: Outcome, pattern: RegExp): void {
  assert.ok(outcome.refusal, `${shape.name}: the install went through; expected a refusal`);
  assert.match(outcome.refusal.message, pattern);
  assert.deepEqual(outcome.listings[1], outcome.listings[0], "nothing added to Hermes's home");
  assert.deepEqual(outcome.installed, outcome.before, "config.yaml keeps its bytes");
  assert.ok(outcome.linkKept && outcome.modeKept, "config.yaml keeps its link, mode and owner");
}

function checkEdit(shape: Shape, outcome: Outcome, readings: Map<string, Reading[]>): void {
  if (outcome.refusal) throw outcome.refusal;
  const before = outcome.before ?? new Uint8Array();
  const installed = outcome.installed!;
  if (shape.expect === "unchanged") assert.deepEqual(installed, before, "already selects vcc");
  const judges = [...readings].filter(([, [original]]) => original && "value" in original);
  assert.ok(judges.length > 0, "no reader reads the original, so none can judge the result");
  for (const [reader, [original, result]] of readings) {
    if (original === undefined || "error" in original) continue;
    assert.ok(result && "value" in result, `${reader} cannot read the result: ${result}`);
    assert.ok(
      isDeepStrictEqual(result.value, activated(original.value)),
      `${reader} reads more changed than the two keys: ${JSON.stringify(result.value)}`,
    );
  }
  const { removed, added } = lineDiff(before, installed);
  // A last line without a line end gets one when keys are added after it.
  const ended = (line: string) => added.some((each) => each.trimEnd() === line);
  const foreign = [...removed, ...added].filter((line) =>
    !OUR_KEYS.test(line) && !(/[^\r\n]$/.test(line) && ended(line)) &&
    !removed.some((each) => /[^\r\n]$/.test(each) && line.trimEnd() === each)
  );
  assert.deepEqual(foreign, [], "only the lines of the two keys change");
  assert.ok(removed.length <= 2, `at most two lines rewritten, not ${removed.length}`);
  assert.ok(outcome.linkKept && outcome.modeKept, "config.yaml keeps its link, mode and owner");
  assert.deepEqual(outcome.uninstalled, outcome.before, "uninstall gives back the original bytes");
  assert.ok(!outcome.pluginLeft, "uninstall removes the plugin directory");
  assert.deepEqual(
    outcome.uninstalledAfterEdit,
    afterBom(outcome.before, EDIT_BY_HAND),
    "uninstall after an edit by hand keeps the edit and nothing of vcc's",
  );
}

/** Reads every file that a shape's checks need with every reader, one batch per reader. */
async function readAll(
  readers: readonly ConfigReader[],
  files: readonly (Uint8Array | undefined)[],
  directory: string,
): Promise<Map<string, (Reading | undefined)[]>> {
  const paths = await Promise.all(files.map(async (bytes, i) => {
    if (bytes === undefined) return undefined;
    const path = join(directory, `${i}.yaml`);
    await Deno.writeFile(path, bytes);
    return path;
  }));
  const present = paths.filter((path) => path !== undefined);
  const all = new Map<string, (Reading | undefined)[]>();
  for (const reader of readers) {
    const read = await reader.read(present);
    const byPath = new Map(present.map((path, i) => [path, read[i]!]));
    all.set(
      reader.name,
      paths.map((path) => path === undefined ? { value: {} } : byPath.get(path)),
    );
  }
  return all;
}

const hermes = await hermesReaders();
const readers = [jsYamlReader, ...(hermes ?? [])];

if (hermes === undefined) {
  Deno.test({
    name: "config.yaml shapes against Hermes's own loaders skipped: no Hermes Agent is installed " +
      `(${INSTALLED_LISTING_PATH} is absent; run \`bash .ci/hermes.sh\`)`,
    ignore: true,
    fn() {},
  });
}

Deno.test(
  `install --activate and uninstall on ${SHAPES.length} config.yaml shapes, read by ` +
    readers.map((reader) => reader.name).join(", "),
  async (t) => {
    const root = await Deno.makeTempDir({ prefix: "vcc-config-shapes-" });
    try {
      const outcomes: Outcome[] = [];
      for (const [i, each] of SHAPES.entries()) {
        outcomes.push(await runShape(each, join(root, `home-${i}`), join(root, `elsewhere-${i}`)));
      }
      await Deno.mkdir(join(root, "read"));
      const files = outcomes.flatMap((outcome) => [outcome.before, outcome.installed]);
      const read = await readAll(readers, files, join(root, "read"));
      for (const [i, each] of SHAPES.entries()) {
        const outcome = outcomes[i]!;
        const readings = new Map(
          [...read].map(([name, all]) => [name, all.slice(2 * i, 2 * i + 2) as Reading[]]),
        );
        const verdict = typeof each.expect === "string" ? each.expect : "refused";
        await t.step(`${each.name}: ${verdict}`, () => {
          if (typeof each.expect === "string") checkEdit(each, outcome, readings);
          else checkRefusal(each, outcome, each.expect.refused);
          if (hermes === undefined) return;
          const hermesFails = hermes.filter((reader) => {
            const original = readings.get(reader.name)![0];
            return original !== undefined && "error" in original;
          });
          assert.equal(
            outcome.refusal instanceof ConfigUnreadable,
            hermesFails.length > 0,
            "vcc calls the file unreadable exactly when a Hermes release cannot read it: " +
              hermesFails.map((reader) => reader.name).join(", "),
          );
        });
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
);
