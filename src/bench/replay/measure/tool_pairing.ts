/**
 * Tool-call pairing in a request, as chat APIs require it: every call of an assistant message is
 * answered by exactly one tool message right after it, and no tool message answers a call that
 * is not there. Each call id that breaks this counts once.
 *
 * @module
 */
import type { ChatMessage } from "../model/chat_request.ts";

/** One broken pair. */
export interface PairingViolation {
  readonly callId: string;
  readonly problem: "no result" | "orphan result" | "answered twice";
}

/** The broken pairs of `messages`. */
export function pairingViolations(messages: readonly ChatMessage[]): PairingViolation[] {
  const violations: PairingViolation[] = [];
  let open = new Set<string>();
  let answered = new Set<string>();
  const close = () => {
    for (const id of open) {
      if (!answered.has(id)) violations.push({ callId: id, problem: "no result" });
    }
    open = new Set();
    answered = new Set();
  };
  for (const message of messages) {
    if (message.role === "tool") {
      const id = String(message.tool_call_id ?? "");
      if (!open.has(id)) violations.push({ callId: id, problem: "orphan result" });
      else if (answered.has(id)) violations.push({ callId: id, problem: "answered twice" });
      else answered.add(id);
      continue;
    }
    close();
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) open.add(String(call.id ?? ""));
    }
  }
  close();
  return violations;
}
