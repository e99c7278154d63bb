/**
 * The scripted model's side of a story: each main-loop request is answered with the story's next
 * step, decided from the request itself. The newest tool result whose call id the story gave
 * (`call_007`) says which step ran last; the newest opening request of a turn says which turn the
 * user is in. So the story runs the same under any engine, whatever the summaries say, and a
 * request that lost its place is answered and recorded as a problem, not guessed at.
 *
 * @module
 */
import {
  type ChatMessage,
  type ChatRequest,
  messageText,
  requestMessages,
} from "./model/chat_request.ts";
import type { ModelReply } from "./model/model_reply.ts";
import type { CallContext } from "./story/action.ts";
import { callId, placedSteps, stepOfCallId, type Story, turnStarts } from "./story/story.ts";

/** How Hermes re-injects a user request a compaction cut (0.22). */
const IN_PROGRESS_PREFIX = "[STILL IN PROGRESS";

/** Plays `story` against the requests of one session. */
export class StoryPlayer {
  readonly #story: Story;
  readonly #projectDir: string;
  readonly #starts: number[];
  readonly #turnOf: number[];
  /** What kept the model from following the story, in the order it happened. */
  readonly problems: string[] = [];

  constructor(story: Story, projectDir: string) {
    this.#story = story;
    this.#projectDir = projectDir;
    this.#starts = turnStarts(story);
    this.#turnOf = placedSteps(story).map((step) => step.turn);
  }

  /** The answer to a main-loop request: the next step's call, or the turn's closing reply. */
  turn(request: ChatRequest): ModelReply {
    const messages = requestMessages(request);
    const lastStep = this.#lastStep(messages);
    const openedTurn = this.#openedTurn(messages);
    const stepTurn = lastStep === undefined ? -1 : this.#turnOf[lastStep]!;
    const turn = Math.max(openedTurn, stepTurn);
    if (turn < 0) {
      this.problems.push("a request held neither a turn's request nor a result of the story");
      return { content: "I have lost track of the task.", toolCalls: [] };
    }
    const next = stepTurn < turn ? this.#starts[turn]! : lastStep! + 1;
    const story = this.#story.turns[turn]!;
    if (next >= this.#starts[turn]! + story.steps.length) {
      return { content: story.closing, toolCalls: [] };
    }
    const step = story.steps[next - this.#starts[turn]!]!;
    const call = step.action.call(this.#context(request, messages));
    return { content: step.note, toolCalls: [{ id: callId(next), ...call }] };
  }

  /** The answer of a sub-agent: the story's answer for the goal it was given. */
  subagent(request: ChatRequest): ModelReply {
    const opening = requestMessages(request).find((message) => message.role === "user");
    const text = opening ? messageText(opening) : "";
    const delegated = this.#story.delegated.find((item) => text.startsWith(item.goal));
    if (!delegated) this.problems.push("a sub-agent request named no goal the story delegated");
    return { content: delegated?.answer ?? "Nothing to report.", toolCalls: [] };
  }

  #lastStep(messages: readonly ChatMessage[]): number | undefined {
    let last: number | undefined;
    for (const message of messages) {
      if (message.role !== "tool") continue;
      const step = stepOfCallId(String(message.tool_call_id ?? ""));
      if (step !== undefined && step < this.#turnOf.length) last = Math.max(last ?? -1, step);
    }
    return last;
  }

  #openedTurn(messages: readonly ChatMessage[]): number {
    let turn = -1;
    for (const message of messages) {
      if (message.role !== "user") continue;
      const text = messageText(message);
      this.#story.turns.forEach((candidate, index) => {
        const opens = text === candidate.prompt ||
          (text.startsWith(IN_PROGRESS_PREFIX) && text.includes(candidate.prompt));
        if (opens) turn = Math.max(turn, index);
      });
    }
    return turn;
  }

  #context(request: ChatRequest, messages: readonly ChatMessage[]): CallContext {
    const tools = new Set((request.tools ?? []).map((tool) => String(tool.function?.name ?? "")));
    return {
      offers: (tool) => tools.has(tool),
      resultOf: (step) => {
        const id = callId(step);
        const found = messages.findLast((message) =>
          message.role === "tool" && message.tool_call_id === id
        );
        return found ? messageText(found) : undefined;
      },
      projectDir: this.#projectDir,
    };
  }
}
