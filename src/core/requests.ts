import type { Row } from "./message.ts";

// User rows that Hermes or the gateway writes itself; they are not requests from the user.
const SYNTHETIC_PREFIXES = [
  "[System:",
  "[CONTEXT",
  "[PRIOR CONTEXT",
  "[END OF PRIOR CONTEXT",
  "[IMPORTANT: Background",
  "[Your active task list",
  "[Planning state preserved",
  "[ASYNC DELEGATION",
  "[OUT-OF-BAND",
  "[STILL IN PROGRESS",
  "Cronjob Response:",
];

/** Whether a row is something the user asked for, not a synthetic or empty user row. */
export function isUserRequest(row: Row): boolean {
  if (row.role !== "user") return false;
  const text = row.text.trimStart();
  return text !== "" && !SYNTHETIC_PREFIXES.some((prefix) => text.startsWith(prefix));
}
