import { type Analysis, attemptOf, eventMoment } from "../analysis.ts";
import { type Attempt, gotPast, isStuck } from "../history.ts";
import { isBlocked, isCleanSuccess, isDecisive } from "../outcome_words.ts";
import { sanitizeInline } from "../sanitize.ts";
import type { Change, SectionSpec } from "../section.ts";
import { apartEntries, callKey, callName, shownSubject } from "./call_label.ts";
import {
  type CallOutcome,
  callOutcome,
  parseCallOutcome,
  renderCallOutcome,
  renderWords,
} from "./call_outcome.ts";

/** A call the agent could not get past: refused, waiting for approval, or still failing. */
export type BlockedEntry = CallOutcome;

const NO_SUCCESS = ", no later success";

/**
 * Blocked: what the agent could not get past — calls whose latest outcome was refused or awaits
 * approval, and work that still failed when last tried: its last attempt (at the same work, as
 * `commandFamily` names it) failed after a failed retry, or nothing at all succeeded after it. A
 * failure the agent moved on from is in Errors & Fixes only, and a non-zero exit that answers a
 * question (`grep` finding nothing) is no failure. A call that succeeds here, or whose work a later
 * attempt got done, leaves a previous projection's Blocked list.
 */
export const BLOCKED: SectionSpec<BlockedEntry> = {
  heading: "## Blocked",
  noun: "blocked entries",
  pinned: 0,
  widths: { narrow: 60, wide: 120 },
  ownWords: NO_SUCCESS,
  changes(analysis: Analysis): Change<BlockedEntry>[] {
    const changes: Change<BlockedEntry>[] = [];
    const events = analysis.events;
    // A job's reports of an end already reported are not attempts of their own.
    const counted = events.filter((event) => !analysis.afterJobEnd.has(event));
    const attempts = new Map(counted.map((event) => [event, attemptOf(event)]));
    const lastClean = events.findLastIndex((event) => isCleanSuccess(event.outcome));
    // Every attempt at each piece of work, in the order they happened.
    const families = new Map<string, Attempt[]>();
    for (const event of counted) {
      const group = analysis.groupOf.get(event.call);
      if (!group) continue;
      const family = families.get(group.family);
      if (family) family.push(attempts.get(event) as Attempt);
      else families.set(group.family, [attempts.get(event) as Attempt]);
    }
    const position = new Map(events.map((event, index) => [event, index]));
    // Listed in the order their last decisive outcomes happened.
    const lasts = analysis.groups.flatMap((group) => {
      const last = group.events.findLast((event) => isDecisive(event.outcome));
      return last ? [{ group, last }] : [];
    }).sort((a, b) => (position.get(a.last) as number) - (position.get(b.last) as number));
    for (const { group, last } of lasts) {
      const at = eventMoment(last);
      const key = callKey(callName(group, true));
      const own = group.events.flatMap((event) => attempts.get(event) ?? []);
      const family = families.get(group.family) ?? own;
      if (gotPast(own) || gotPast(family)) {
        changes.push({ key, addIfNew: false, at });
        continue;
      }
      if (!isStuck(own, family, (position.get(last) as number) < lastClean)) continue;
      // A refusal quotes its words; a failure says only that nothing succeeded after it.
      const entry = callOutcome(group, last, isBlocked(last.outcome));
      changes.push({ key, entry, addIfNew: true, at });
    }
    return changes;
  },
  key: (entry) => callKey(entry.name),
  shows: (entry, width, view) => `${entry.name.tool} ${shownSubject(entry.name, width, view)}`,
  apart: apartEntries,
  merge: (earlier, later, older) => (older ? earlier : later),
  render(entry, width, view) {
    const head = renderCallOutcome(entry, width, view);
    return isBlocked(entry.state)
      ? `${head}${renderWords(entry.words, width * 2)}`
      : `${head}${NO_SUCCESS}`;
  },
  parse(line, view) {
    const read = parseCallOutcome(line, view);
    if (!read) return undefined;
    if (read.rest === NO_SUCCESS || read.rest === "") return read.entry;
    return read.rest.startsWith(": ")
      ? { ...read.entry, words: sanitizeInline(read.rest.slice(2)) }
      : undefined;
  },
};
