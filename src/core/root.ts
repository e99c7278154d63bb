/**
 * The directory a session works in, named once at the top of a projection: lines show it as `…`
 * (`cd … && pytest -q`, `…/tests/test_stats.py`), which reads back exactly, so the long root is
 * not repeated on every line.
 *
 * @module
 */
import { remembered } from "./remembered.ts";
import { sanitizeInline } from "./sanitize.ts";

/** Where a line's paths are read from: the projection's root, when it names one. */
export interface RootView {
  readonly root?: string;
}

/** A view without a root: lines show paths whole. */
export const WHOLE_PATHS: RootView = {};

/** How a line shows the root. */
export const ROOT_MARK = "…";
const NOTE_START = `(${ROOT_MARK} is `;
const NOTE_END = ")";
// The shortest root worth naming: `/home/u` would save little; `/testbed` is worth it.
const LEAST_LENGTH = 8;
// The share of the session's absolute paths the root must hold.
const ROOT_SHARE = 0.5;

/**
 * The root of the session's paths: of the directories (of eight characters or more) holding at
 * least half of the absolute paths its work named (directories it changed to, files it touched),
 * named at least twice, the one whose naming saves the most (its length on each path it holds;
 * the deeper of two that save the same); the earlier projection's root while it still holds half
 * of them, so lines do not change with every compaction. `undefined` when no directory does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findRoot } from "./root.ts";
 * assert.equal(findRoot(["/tmp/run-1/proj", "/tmp/run-1/proj/src/a.py", "/etc/hosts"]), "/tmp/run-1/proj");
 * ```
 */
export function findRoot(paths: readonly string[], earlier?: string): string | undefined {
  const absolute = paths.filter((path) => path.startsWith("/") && !path.includes(ROOT_MARK));
  const holds = (dir: string) =>
    absolute.filter((path) => path === dir || path.startsWith(`${dir}/`)).length;
  const enough = Math.max(2, Math.ceil(absolute.length * ROOT_SHARE));
  if (earlier !== undefined && holds(earlier) >= enough) return earlier;
  const counts = new Map<string, number>();
  for (const path of absolute) {
    const parts = path.split("/").filter((part) => part !== "");
    // Every directory of the path, the path itself included (it may be one).
    for (let depth = 1; depth <= parts.length; depth++) {
      const dir = `/${parts.slice(0, depth).join("/")}`;
      if (dir.length >= LEAST_LENGTH) counts.set(dir, (counts.get(dir) ?? 0) + 1);
    }
  }
  let best: string | undefined;
  let bestSaved = 0;
  for (const [dir, count] of counts) {
    const held = holds(dir);
    if (held < enough || count < 2) continue;
    // What naming it saves: its length, less the mark, on every path it holds.
    const saved = held * (dir.length - ROOT_MARK.length);
    if (
      best === undefined || saved > bestSaved ||
      (saved === bestSaved &&
        (dir.length > best.length || (dir.length === best.length && dir < best)))
    ) {
      best = dir;
      bestSaved = saved;
    }
  }
  return best;
}

// Where the root stands in a line: as the leading directories of a path, or the directory a
// `cd` changes to. (A lone `…` elsewhere is a cut, never the root.)
const WORD_START = String.raw`(?<=^|[\s'"\x60=(:,])`;
const CD_END = String.raw`(?=$|[\s;&|)])`;
// Where a line shows the root as `…`.
const MARKED_PATH = new RegExp(`${WORD_START}${ROOT_MARK}/`, "g");
const MARKED_CD = new RegExp(`${WORD_START}cd ${ROOT_MARK}${CD_END}`, "g");

/**
 * `text` (already sanitised) with the root shown as `…` where it leads a path (`…/src/a.py`) or
 * is the directory a `cd` changes to (`cd … &&`); both read back exactly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { showRoot } from "./root.ts";
 * assert.equal(showRoot("cd /tmp/p && cat /tmp/p/a.py /tmp/pp", { root: "/tmp/p" }), "cd … && cat …/a.py /tmp/pp");
 * ```
 */
export function showRoot(text: string, view: RootView): string {
  const shown = shownRoot(view);
  if (shown === undefined || !text.includes(shown.root)) return text;
  return text.replace(shown.path, `${ROOT_MARK}/`).replace(shown.cd, `cd ${ROOT_MARK}`);
}

/** The text {@linkcode showRoot} showed, its `…` read back as the root. */
export function readRoot(shown: string, view: RootView): string {
  const root = shownRoot(view)?.root;
  if (root === undefined || !shown.includes(ROOT_MARK)) return shown;
  return shown.replace(MARKED_PATH, `${root}/`).replace(MARKED_CD, `cd ${root}`);
}

/** A view's root as lines show it (sanitised), and the patterns of where it stands in them. */
interface ShownRoot {
  readonly root: string;
  readonly path: RegExp;
  readonly cd: RegExp;
}

// Made once per view: every line a projection renders or reads back asks for them.
const SHOWN_ROOTS = new WeakMap<RootView, ShownRoot>();

function shownRoot(view: RootView): ShownRoot | undefined {
  if (view.root === undefined) return undefined;
  const whole = view.root;
  return remembered(SHOWN_ROOTS, view, () => {
    const root = sanitizeInline(whole);
    const escaped = RegExp.escape(root);
    return {
      root,
      path: new RegExp(`${WORD_START}${escaped}/`, "g"),
      cd: new RegExp(`${WORD_START}cd ${escaped}${CD_END}`, "g"),
    };
  });
}

/** The line that names the root, under the projection's header. */
export function rootNote(root: string): string {
  return `${NOTE_START}${sanitizeInline(root)}${NOTE_END}`;
}

/** The root a {@linkcode rootNote} line names; `undefined` for any other line. */
export function readRootNote(line: string): string | undefined {
  if (!line.startsWith(NOTE_START) || !line.endsWith(NOTE_END)) return undefined;
  const root = line.slice(NOTE_START.length, -NOTE_END.length);
  return root.startsWith("/") && !/\s/.test(root) ? root : undefined;
}
