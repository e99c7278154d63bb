/**
 * The tabs in `config.yaml` that one of Hermes's YAML readers rejects. Hermes on Python 3.14 reads
 * the file with ruamel.yaml's pure-Python parser (ruamel.yaml installs its C parser only below
 * 3.14), which takes a tab only in a comment, in quoted text, in a block scalar's text, and
 * between the parts of a `[ ]` or `{ }` collection (not right after a tag). hermes-agent 0.19
 * reads it with PyYAML's libyaml, which also rejects a tab that starts a block scalar's text when
 * the header has no indentation indicator, and, inside `[ ]` or `{ }`, a tab left of the block
 * indentation on a line that goes on from an unquoted value. The file is walked as the `yaml`
 * package's concrete syntax tree, with a stack rather than recursion.
 *
 * @module
 */
import { type CST, Parser } from "yaml";

/** A tab a Hermes reader rejects: where, what is wrong and what to do, each naming the line. */
export interface RejectedTab {
  readonly offset: number;
  readonly problem: string;
  readonly fix: string;
}

/** Where source sits: inside `[ ]` or `{ }` or not, and the block indentation there. */
interface Place {
  readonly flow: boolean;
  /** The column of the innermost block mapping or sequence; -1 outside any. */
  readonly blockIndent: number;
}

/** A run of source as the tree splits it, with its place; a block scalar's text has its header. */
interface Piece {
  readonly type: string;
  readonly offset: number;
  readonly source: string;
  readonly place: Place;
  readonly header?: string;
}

type Entry = Piece | { readonly token: CST.Token; readonly place: Place };

/** A rejected tab: where it is and why. */
interface Found {
  readonly offset: number;
  readonly reason: "unquoted text" | "outside" | "block scalar start" | "flow indent";
  /** For a block scalar's start: its header, and the same with an indentation indicator. */
  readonly header?: readonly [string, string];
}

const TOP: Place = { flow: false, blockIndent: -1 };
const CLOSERS = new Set(["flow-map-end", "flow-seq-end"]);
const QUOTED_OR_COMMENT = new Set(["comment", "single-quoted-scalar", "double-quoted-scalar"]);
const PURE = "which Hermes on Python 3.14 cannot read (ruamel.yaml's pure-Python parser)";
const LIBYAML = "which hermes-agent 0.19 cannot read (PyYAML with libyaml)";

/** The parts of a collection's item, in source order. */
function itemParts(item: CST.CollectionItem): (CST.Token | null | undefined)[] {
  return [...item.start, item.key, ...(item.sep ?? []), item.value];
}

/** The entries `token` is made of, in source order. */
function entriesOf(token: CST.Token, place: Place): Entry[] {
  const at = (where: Place) => (each: CST.Token | null | undefined): Entry[] =>
    each ? [{ token: each, place: where }] : [];
  switch (token.type) {
    case "document":
      return [...token.start, token.value, ...(token.end ?? [])].flatMap(at(place));
    case "block-map":
    case "block-seq": {
      const inner = { flow: false, blockIndent: token.indent };
      return token.items.flatMap((item) => itemParts(item).flatMap(at(inner)));
    }
    case "flow-collection": {
      const inner = { flow: true, blockIndent: place.blockIndent };
      const closer = token.end.findIndex((each) => CLOSERS.has(each.type));
      const inside = closer === -1 ? token.end : token.end.slice(0, closer);
      return [
        ...at(place)(token.start),
        ...token.items.flatMap((item) => itemParts(item).flatMap(at(inner))),
        ...inside.flatMap(at(inner)),
        ...(closer === -1 ? [] : token.end.slice(closer)).flatMap(at(place)),
      ];
    }
    case "block-scalar": {
      const last = token.props.at(-1);
      const header = token.props.find((each) => each.type === "block-scalar-header");
      const text: Piece = {
        type: token.type,
        offset: last ? last.offset + ("source" in last ? last.source.length : 0) : token.offset,
        source: token.source,
        place,
        ...(header && "source" in header && { header: header.source }),
      };
      return [...token.props.flatMap(at(place)), text];
    }
    case "alias":
    case "scalar":
    case "single-quoted-scalar":
    case "double-quoted-scalar":
    case "doc-end": {
      const { type, offset, source } = token;
      return [{ type, offset, source, place }, ...(token.end ?? []).flatMap(at(place))];
    }
    default:
      return [{ type: token.type, offset: token.offset, source: token.source, place }];
  }
}

/** The pieces of `tokens`, in source order. */
function* piecesOf(tokens: Iterable<CST.Token>): Generator<Piece> {
  const stack: Entry[] = [...tokens].reverse().map((token) => ({ token, place: TOP }));
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    if ("token" in entry) stack.push(...entriesOf(entry.token, entry.place).reverse());
    else yield entry;
  }
}

/**
 * The first tab in a block scalar's text that a reader rejects: one left of the text's indentation,
 * or (libyaml, without an indentation indicator) one that starts the first line with text.
 */
function blockScalarTab(text: Piece): Found | undefined {
  const header = text.header ?? "|";
  const indicator = /[1-9]/.exec(header);
  const lowest = text.place.blockIndent + 1;
  // An indentation indicator counts from here (ruamel.yaml's and libyaml's rule alike).
  const base = Math.max(lowest, 1) - 1;
  const lines = text.source.split("\n");
  let indent = base + Number(indicator?.[0] ?? 1);
  let firstText = -1;
  if (!indicator) {
    let most = 0;
    firstText = lines.findIndex((line) => {
      const spaces = /^ */.exec(line)![0].length;
      most = Math.max(most, spaces);
      return line.slice(spaces).replace(/\r$/, "") !== "";
    });
    indent = Math.max(lowest, most);
  }
  let offset = text.offset;
  for (const [i, line] of lines.entries()) {
    const column = line.indexOf("\t");
    if (column !== -1 && column < indent) return { offset: offset + column, reason: "outside" };
    if (i === firstText && column === indent) {
      const steps = indent - base;
      return {
        offset: offset + column,
        reason: "block scalar start",
        ...(steps <= 9 && { header: [header, `${header[0]}${steps}${header.slice(1)}`] }),
      };
    }
    offset += line.length + 1;
  }
  return undefined;
}

/** The first tab in `text` (YAML with `\n` line ends) that a Hermes reader rejects. */
function firstRejectedTab(text: string): Found | undefined {
  let previous = "";
  /** After an unquoted value: not, on its line, or on a line after it. */
  let afterUnquoted: "no" | "same line" | "next line" = "no";
  for (const each of piecesOf(new Parser().parse(text))) {
    const tab = each.source.indexOf("\t");
    const offset = each.offset + tab;
    if (each.type === "block-scalar") {
      const found = blockScalarTab(each);
      if (found) return found;
    } else if (tab !== -1 && each.type === "scalar") {
      return { offset, reason: "unquoted text" };
    } else if (tab !== -1 && each.type === "space") {
      if (!each.place.flow || (tab === 0 && previous === "tag")) {
        return { offset, reason: "outside" };
      }
      const column = offset - (text.lastIndexOf("\n", offset - 1) + 1);
      if (afterUnquoted === "next line" && column <= each.place.blockIndent) {
        return { offset, reason: "flow indent" };
      }
    } else if (tab !== -1 && !QUOTED_OR_COMMENT.has(each.type)) {
      return { offset, reason: "outside" };
    }
    if (each.type === "scalar") afterUnquoted = "same line";
    else if (each.type === "newline" && afterUnquoted !== "no") afterUnquoted = "next line";
    else if (each.type !== "space") afterUnquoted = "no";
    previous = each.type;
  }
  return undefined;
}

/**
 * The first tab in `text` (YAML whose line ends are `\n`) that a Hermes reader rejects, with what to
 * do about it; `lineOf` numbers the line of an offset.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rejectedTab } from "./config_tabs.ts";
 * const lineOf = (offset: number) => "model: x\t# c".slice(0, offset).split("\n").length;
 * assert.match(rejectedTab("model: x\t# c", lineOf)!.problem, /^a tab on line 1 /);
 * assert.equal(rejectedTab("model: x  #\tc", lineOf), undefined);
 * ```
 */
export function rejectedTab(
  text: string,
  lineOf: (offset: number) => number,
): RejectedTab | undefined {
  const found = firstRejectedTab(text);
  return found && { offset: found.offset, ...explained(found, lineOf(found.offset)) };
}

/** What is wrong with the tab `found` on `line`, and what to do. */
function explained(found: Found, line: number): { problem: string; fix: string } {
  const spaces = `replace the tab on line ${line} with spaces`;
  switch (found.reason) {
    case "unquoted text":
      return {
        problem: `a tab inside unquoted text on line ${line}, ${PURE}`,
        fix: `put that text in quotes, or ${spaces}`,
      };
    case "outside":
      return {
        problem: `a tab on line ${line} outside a comment or quoted text, ${PURE}`,
        fix: spaces,
      };
    case "block scalar start":
      return {
        problem: `a tab starting the block scalar text on line ${line}, ${LIBYAML}`,
        fix: found.header
          ? `change the block scalar's header from ${found.header[0]} to ${found.header[1]} ` +
            "(an indentation indicator)"
          : spaces,
      };
    case "flow indent":
      return { problem: `a tab indenting line ${line} inside [ ] or { }, ${LIBYAML}`, fix: spaces };
  }
}
