/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1 for driving a real Hermes:
 * `GET /v1/models` and `POST /v1/chat/completions`, answered streamed (server-sent events) or as
 * JSON, as the request asks, with a `usage` block Hermes reads the prompt size from.
 *
 * It is bounded: past `maxRequests` requests or `deadlineMs` it answers 429, so a Hermes that
 * loops cannot keep a run going.
 *
 * @module
 */
import type { ChatRequest } from "./chat_request.ts";
import {
  completionBody,
  completionEvents,
  type ModelReply,
  type ReplyUsage,
} from "./model_reply.ts";

/** Characters per token in the `usage` the server reports (Hermes's rough estimate uses 4). */
export const CHARS_PER_TOKEN = 4;

/** How the server answers and how long it serves. */
export interface ModelServerOptions {
  /** The answer to one request; it runs before the response is sent. */
  readonly respond: (request: ChatRequest) => ModelReply;
  readonly maxRequests: number;
  readonly deadlineMs: number;
}

/** A running server. */
export interface ModelServer {
  /** The `base_url` for Hermes, `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  /** Requests refused past the bounds, and answers that failed. */
  readonly problems: readonly string[];
  close(): Promise<void>;
}

/** The prompt size `usage` reports: the request's messages and tools as JSON, over 4. */
export function promptTokens(request: ChatRequest): number {
  const size = JSON.stringify(request.messages ?? []).length +
    JSON.stringify(request.tools ?? []).length;
  return Math.floor(size / CHARS_PER_TOKEN);
}

function replyTokens(reply: ModelReply): number {
  const size = reply.content.length +
    JSON.stringify(reply.toolCalls.map((call) => call.arguments)).length;
  return Math.max(1, Math.floor(size / CHARS_PER_TOKEN));
}

function json(status: number, payload: unknown): Response {
  return new Response(JSON.stringify(payload), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** Starts the server on a free port of 127.0.0.1. */
export function startModelServer(options: ModelServerOptions): ModelServer {
  const problems: string[] = [];
  const started = performance.now();
  let served = 0;
  const handle = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname.replace(/\/+$/, "");
    if (request.method === "GET" && path.endsWith("/models")) {
      return json(200, { object: "list", data: [{ id: "scripted-model", object: "model" }] });
    }
    if (request.method !== "POST" || !path.endsWith("/chat/completions")) {
      return json(404, { error: { message: `no route ${path}` } });
    }
    let body: ChatRequest;
    try {
      body = await request.json();
    } catch {
      return json(400, { error: { message: "request body is not JSON" } });
    }
    served += 1;
    const late = performance.now() - started > options.deadlineMs;
    if (served > options.maxRequests || late) {
      problems.push(`refused request ${served}: past the ${late ? "deadline" : "request limit"}`);
      return json(429, { error: { message: "scripted model: bounds exceeded" } });
    }
    let reply: ModelReply;
    try {
      reply = options.respond(body);
    } catch (error) {
      problems.push(
        `answering request ${served} failed: ${error instanceof Error ? error.message : error}`,
      );
      reply = { content: "The scripted model failed to answer.", toolCalls: [] };
    }
    const promptSize = promptTokens(body);
    const completion = replyTokens(reply);
    const usage: ReplyUsage = {
      prompt_tokens: promptSize,
      completion_tokens: completion,
      total_tokens: promptSize + completion,
    };
    if (!body.stream) return json(200, completionBody(reply, usage));
    return new Response(
      completionEvents(reply, usage, body.stream_options?.include_usage === true),
      {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      },
    );
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handle);
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
    problems,
    close: () => server.shutdown(),
  };
}
