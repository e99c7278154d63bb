import type { Analysis } from "../analysis.ts";
import { cutMiddle } from "../excerpt.ts";
import {
  citedRequest,
  isRestatement,
  isUserRequest,
  parseRequest,
  renderRequest,
  type RequestEntry,
  requestKey,
  requestOf,
  unsavedRequestKey,
} from "../requests.ts";
import { momentOf } from "../moment.ts";
import type { Change, SectionSpec } from "../section.ts";

/**
 * Goal: every request the user made, in the order made, the first one pinned (it is what the
 * session is for). Carried forward across compactions; a request Hermes stored again (same words,
 * same time) is the same request, as are the same words asked again (listed once, where first
 * asked), an earlier line that could not cite its row gives way to the line that does, and bare
 * acknowledgements and approvals ("ok, go ahead") are not requests. A request too long for its
 * line shows its start and its end.
 */
export const GOAL: SectionSpec<RequestEntry> = {
  heading: "## Goal",
  noun: "requests",
  pinned: 1,
  widths: { narrow: 120, wide: 600 },
  ownWords: "",
  changes(analysis: Analysis): Change<RequestEntry>[] {
    const requests = analysis.window.rows
      .filter((row) => isUserRequest(row) && !analysis.copies.has(row))
      .map((row) => ({ row, entry: requestOf(row), restated: isRestatement(row) }));
    // A request Hermes restated after a compaction is the request: not again when the window
    // holds the request itself. Words asked again are the request asked first, listed once.
    const asked = new Set(
      requests.filter(({ restated }) => !restated).map(({ entry }) => entry.text),
    );
    const listed = new Set<string>();
    const firstAsked = ({ entry }: { entry: RequestEntry }) => {
      const first = !listed.has(entry.text);
      listed.add(entry.text);
      return first;
    };
    return requests.filter(({ restated, entry }) => !restated || !asked.has(entry.text))
      .filter(firstAsked)
      .map(({ row, entry }) => ({
        key: requestKey(entry),
        entry,
        addIfNew: true,
        at: momentOf(row),
        // An earlier projection's line for these words that could not cite their row is this one.
        ...(entry.ref?.kind === "row" ? { formerKey: unsavedRequestKey(entry) } : {}),
      }));
  },
  key: requestKey,
  merge: citedRequest,
  // A long request keeps its end too: what to do last is often said last.
  render: (entry, width) => renderRequest(entry, (text) => cutMiddle(text, width)),
  parse: parseRequest,
};
