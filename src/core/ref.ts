/**
 * References: how a projection line cites a message. This module is the only place a reference is
 * rendered (`[#N]`, `[tN]`, `[unsaved]`) or read back from text.
 *
 * @module
 */
import { isRecord } from "./content.ts";

/**
 * A cited message: a row stored in Hermes's `state.db` (`[#N]`, `N` its row id), a position in
 * the current window for a message not yet saved (`[tN]`, 1-based), or a message of an earlier
 * window that was never saved (`[unsaved]`), which nothing can open.
 */
export type Ref =
  | { readonly kind: "row"; readonly id: number }
  | { readonly kind: "position"; readonly n: number }
  | { readonly kind: "unsaved" };

/** The reference for nothing that can be opened any more. */
export const UNSAVED: Ref = { kind: "unsaved" };

/** A reference as a pattern source, for grammars that embed one (no capture groups). */
export const REF_PATTERN = String.raw`\[(?:#\d{1,15}|t\d{1,9}|unsaved)\]`;

const ONE_REF = /^\[(?:#(\d{1,15})|t(\d{1,9})|(unsaved))\]$/;

/**
 * The reference of the message at `index` of a window: its stored `_row_id` (a non-negative safe
 * integer, or its decimal string), else its 1-based position.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderRef, windowRef } from "./ref.ts";
 * assert.equal(renderRef(windowRef({ role: "user", _row_id: 7 }, 0)), "[#7]");
 * assert.equal(renderRef(windowRef({ role: "user" }, 2)), "[t3]");
 * ```
 */
export function windowRef(message: unknown, index: number): Ref {
  const rowId = isRecord(message) ? message._row_id : undefined;
  if (typeof rowId === "number" && Number.isSafeInteger(rowId) && rowId >= 0) {
    return { kind: "row", id: rowId };
  }
  if (typeof rowId === "string" && /^\d{1,15}$/.test(rowId)) {
    return { kind: "row", id: Number(rowId) };
  }
  return { kind: "position", n: index + 1 };
}

/** `[#N]`, `[tN]` or `[unsaved]`. */
export function renderRef(ref: Ref): string {
  switch (ref.kind) {
    case "row":
      return `[#${ref.id}]`;
    case "position":
      return `[t${ref.n}]`;
    case "unsaved":
      return "[unsaved]";
  }
}

/**
 * Reads one bracketed reference token as rendered by {@linkcode renderRef}. A positional `[tN]`
 * read back from a previous projection named a message of that earlier window, so it becomes
 * `[unsaved]`.
 */
export function parsePreviousRef(token: string): Ref | undefined {
  const match = ONE_REF.exec(token);
  if (!match) return undefined;
  return match[1] !== undefined ? { kind: "row", id: Number(match[1]) } : UNSAVED;
}

/** Whether two references name the same stored row (unsaved and positional ones never match). */
export function sameRow(a: Ref, b: Ref): boolean {
  return a.kind === "row" && b.kind === "row" && a.id === b.id;
}

/** The label of a reference without brackets (`#12`, `t3`, `unsaved`), as `rowReference` gives. */
export function refLabel(ref: Ref): string {
  return renderRef(ref).slice(1, -1);
}
