/**
 * What the scripted model answers, and its wire forms: a chat-completions JSON body, or the
 * server-sent events of a streamed answer (role chunk, content, one chunk per tool call, the
 * finish reason, usage as its own chunk when the request asked for it).
 *
 * @module
 */

/** One tool call the model makes. */
export interface ReplyCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** The model's answer: text, tool calls, or both. */
export interface ModelReply {
  readonly content: string;
  readonly toolCalls: readonly ReplyCall[];
}

/** Token counts reported in `usage`. */
export interface ReplyUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

const MODEL = "scripted-model";

function wireCalls(reply: ModelReply) {
  return reply.toolCalls.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

function finishReason(reply: ModelReply): string {
  return reply.toolCalls.length > 0 ? "tool_calls" : "stop";
}

/** The reply as a non-streamed chat-completions body. */
export function completionBody(reply: ModelReply, usage: ReplyUsage): unknown {
  return {
    id: "chatcmpl-scripted",
    object: "chat.completion",
    created: 0,
    model: MODEL,
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: reply.content === "" ? null : reply.content,
        ...(reply.toolCalls.length > 0 ? { tool_calls: wireCalls(reply) } : {}),
      },
      finish_reason: finishReason(reply),
    }],
    usage,
  };
}

/** The reply as the text of a server-sent event stream, `data: [DONE]` last. */
export function completionEvents(
  reply: ModelReply,
  usage: ReplyUsage,
  separateUsage: boolean,
): string {
  const chunk = (delta: unknown, finish: string | null) => ({
    id: "chatcmpl-scripted",
    object: "chat.completion.chunk",
    created: 0,
    model: MODEL,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: "assistant", content: "" }, null)];
  if (reply.content !== "") chunks.push(chunk({ content: reply.content }, null));
  wireCalls(reply).forEach((call, index) =>
    chunks.push(chunk({ tool_calls: [{ index, ...call }] }, null))
  );
  const last = chunk({}, finishReason(reply));
  if (separateUsage) {
    chunks.push(last, { ...chunk({}, null), choices: [], usage });
  } else {
    chunks.push({ ...last, usage });
  }
  return chunks.map((item) => `data: ${JSON.stringify(item)}\n\n`).join("") + "data: [DONE]\n\n";
}
