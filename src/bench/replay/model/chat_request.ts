/**
 * The parts of an OpenAI chat-completions request the bench reads: messages (content as a string
 * or a list of parts), their tool calls and ids, and the tools offered.
 *
 * @module
 */

/** One tool call on an assistant message. */
export interface ChatToolCall {
  readonly id?: string;
  readonly function?: { readonly name?: string; readonly arguments?: string };
}

/** One message as Hermes sends it. */
export interface ChatMessage {
  readonly role?: string;
  readonly content?: unknown;
  readonly tool_calls?: readonly ChatToolCall[];
  readonly tool_call_id?: string;
}

/** One offered tool. */
export interface ChatTool {
  readonly function?: { readonly name?: string };
}

/** A chat-completions request body. */
export interface ChatRequest {
  readonly messages?: readonly ChatMessage[];
  readonly tools?: readonly ChatTool[];
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
}

/** A message's text: its string content, or its text parts joined by newlines. */
export function messageText(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => typeof part === "object" && part && "text" in part ? String(part.text) : "")
      .join("\n");
  }
  return "";
}

/** The messages of a request that are objects. */
export function requestMessages(request: ChatRequest): ChatMessage[] {
  return (request.messages ?? []).filter((message) => typeof message === "object" && message);
}
