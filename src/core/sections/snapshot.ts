import type { Analysis } from "../analysis.ts";
import { cutMiddle } from "../excerpt.ts";
import {
  HISTORICAL_TASK_HEADING,
  NO_USER_TASK_SENTINEL,
  SNAPSHOT_GROUNDING_WORDS,
} from "../hermes.ts";
import {
  citedRequest,
  isUserRequest,
  isUserTurn,
  parseRequest,
  renderRequest,
  type RequestEntry,
  requestOf,
  unsavedRequestKey,
  withoutRestatement,
} from "../requests.ts";
import { momentOf } from "../moment.ts";
import type { Change, SectionSpec } from "../section.ts";

const KEY = "latest request";
// Hermes's grounding quotes the request as a Python string literal.
const GROUNDED = new RegExp(`^${RegExp.escape(SNAPSHOT_GROUNDING_WORDS)}(['"])(.*)\\1$`);

/**
 * Historical Task Snapshot: the latest request the user made, quoted. A window without a request
 * keeps the previous projection's; one without any turn of the user's, and no earlier request,
 * says so in the words Hermes's provenance check requires. Hermes (0.22) rewrites this section in its own words after the
 * projection; read back, its quote is unwrapped again, without the marker Hermes puts before a
 * request it restates.
 */
export const SNAPSHOT: SectionSpec<RequestEntry> = {
  heading: HISTORICAL_TASK_HEADING,
  noun: "lines",
  pinned: 1,
  widths: { narrow: 320, wide: 1400 },
  ownWords: "",
  changes(analysis: Analysis): Change<RequestEntry>[] {
    const rows = analysis.window.rows;
    const row = rows.findLast((candidate) => isUserRequest(candidate));
    if (row !== undefined) {
      return [{ key: KEY, entry: requestOf(row), addIfNew: true, at: momentOf(row) }];
    }
    // Turns without one of the user's: the snapshot says so in Hermes's words, which its
    // provenance check requires (it never replaces an earlier projection's request).
    if (rows.some(isUserTurn)) return [];
    return [{ key: KEY, entry: { text: NO_USER_TASK_SENTINEL }, addIfNew: true, at: {} }];
  },
  key: () => KEY,
  merge(earlier, later, older) {
    if (!older && later.text !== NO_USER_TASK_SENTINEL) return later;
    return unsavedRequestKey(earlier) === unsavedRequestKey(later)
      ? citedRequest(earlier, later)
      : earlier;
  },
  // A long request keeps its end too: what to do last is often said last.
  render: (entry, width) => renderRequest(entry, (text) => cutMiddle(text, width)),
  parse(line) {
    const entry = parseRequest(line);
    if (!entry) return undefined;
    const grounded = GROUNDED.exec(entry.text);
    if (!grounded) return entry;
    return { ...entry, text: withoutRestatement(unquotePython(grounded[2] as string)) };
  },
};

/** The text of a Python string literal's body (the escapes `repr` writes for quotes and `\`). */
function unquotePython(body: string): string {
  return body.replace(/\\(['"\\])/g, "$1");
}
