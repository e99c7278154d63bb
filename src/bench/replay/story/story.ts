/**
 * A seeded coding-agent session as the scripted model plays it: turns of user requests, each a
 * run of tool actions (numbered across the whole story) and the assistant's closing reply, the
 * project the tools work on, the skills and sub-agent answers it needs, and the facts it plants.
 *
 * @module
 */
import type { ToolAction } from "./action.ts";
import type { PlantedFact } from "./fact.ts";

/** One step: a tool action, and the assistant text sent with its call. */
export interface StoryStep {
  readonly action: ToolAction;
  /** What the assistant says with the call (`""`: nothing). */
  readonly note: string;
}

/** One user turn: the request, the steps it takes, the reply that ends it. */
export interface StoryTurn {
  readonly prompt: string;
  readonly steps: readonly StoryStep[];
  readonly closing: string;
}

/** What a sub-agent the story delegates to answers, told by the goal it was given. */
export interface DelegatedAnswer {
  readonly goal: string;
  readonly answer: string;
}

/** A whole story. */
export interface Story {
  readonly name: string;
  readonly seed: number;
  readonly turns: readonly StoryTurn[];
  /** The project the session works on: relative path to text. */
  readonly files: Readonly<Record<string, string>>;
  /** Skills installed in Hermes's home: path below `skills/` to text. */
  readonly skills: Readonly<Record<string, string>>;
  readonly delegated: readonly DelegatedAnswer[];
  readonly facts: readonly PlantedFact[];
  /** Lines that report errors in the outputs the story prints, for fingerprinting. */
  readonly errorLines: readonly string[];
}

/** A step with its place in the story. */
export interface PlacedStep extends StoryStep {
  /** 0-based across the whole story. */
  readonly index: number;
  readonly turn: number;
}

/** Every step of `story`, in order, numbered across turns. */
export function placedSteps(story: Story): PlacedStep[] {
  const placed: PlacedStep[] = [];
  story.turns.forEach((turn, turnIndex) => {
    for (const step of turn.steps) placed.push({ ...step, index: placed.length, turn: turnIndex });
  });
  return placed;
}

/** The index of the first step of each turn (a turn without steps gets the next turn's). */
export function turnStarts(story: Story): number[] {
  const starts: number[] = [];
  let next = 0;
  for (const turn of story.turns) {
    starts.push(next);
    next += turn.steps.length;
  }
  return starts;
}

const CALL_ID = /^call_(\d{3,})$/;

/** The id the scripted model gives step `index`'s call: `call_007`. */
export function callId(index: number): string {
  return `call_${String(index).padStart(3, "0")}`;
}

/** The step a call id names, or undefined for an id the story did not give. */
export function stepOfCallId(id: string): number | undefined {
  const match = CALL_ID.exec(id);
  return match ? Number(match[1]) : undefined;
}
