/** Where the model server is and which model to use. */
export interface ChatServer {
  /** Base URL of an OpenAI-compatible API, e.g. `http://127.0.0.1:8080/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  /** Give up on one request after this many milliseconds. */
  readonly timeoutMs: number;
}

/** A model reply and how long it took. */
export interface ChatReply {
  readonly content: string;
  readonly elapsedMs: number;
}

/**
 * Sends one chat completion request (temperature 0) to an OpenAI-compatible server such as
 * llama.cpp, vLLM or Ollama, and returns the reply text. Throws on HTTP errors and timeouts.
 */
export async function chatCompletion(
  server: ChatServer,
  messages: readonly { role: "system" | "user"; content: string }[],
): Promise<ChatReply> {
  const started = performance.now();
  const response = await fetch(`${server.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: server.model, messages, temperature: 0, stream: false }),
    signal: AbortSignal.timeout(server.timeoutMs),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`model server answered HTTP ${response.status}`);
  }
  const payload = await response.json() as {
    choices?: { message?: { content?: unknown } }[];
  };
  const content = payload.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new Error("model server reply has no message content");
  return { content, elapsedMs: performance.now() - started };
}
