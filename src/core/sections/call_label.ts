import type { CallGroup } from "../calls.ts";
import { inlineCode } from "../command.ts";

/** `tool \`subject\`` as Blocked and Errors & Fixes name a call; also their merge key. */
export function callLabel(group: CallGroup): string {
  return group.subject === "" ? group.tool : `${group.tool} ${inlineCode(group.subject)}`;
}
