import assert from "node:assert/strict";
import { requestKind } from "../../src/bench/replay/model/request_kind.ts";
import {
  MIN_LINE_CHARS,
  STAND_IN_HEADING,
  standInSummary,
} from "../../src/bench/replay/summary_stand_in.ts";
import { StoryPlayer } from "../../src/bench/replay/story_player.ts";
import { ledgerStory } from "../../src/bench/replay/ledger/story.ts";
import { callId, placedSteps, turnStarts } from "../../src/bench/replay/story/story.ts";
import type { ChatMessage, ChatRequest } from "../../src/bench/replay/model/chat_request.ts";

const TOOLS = [{ function: { name: "terminal" } }, { function: { name: "tool_call" } }];

Deno.test("requestKind() tells requests apart by their messages, not their order", () => {
  const cases: [ChatRequest, string][] = [
    [{ messages: [{ role: "user", content: "Fix it" }], tools: TOOLS }, "turn"],
    [
      { messages: [{ role: "user", content: "List every call site of x." }], tools: TOOLS },
      "subagent",
    ],
    [{
      messages: [{
        role: "user",
        content: "You are a summarization agent…\nTURNS TO SUMMARIZE:\n[USER]: hi",
      }],
    }, "summary"],
    [
      {
        messages: [{ role: "user", content: "PREVIOUS SUMMARY:\n…\nNEW TURNS TO INCORPORATE:\n" }],
      },
      "summary",
    ],
    [{
      messages: [{ role: "system", content: "You name chat sessions." }, {
        role: "user",
        content: "x",
      }],
    }, "title"],
    [{ messages: [{ role: "user", content: "Review the conversation above" }] }, "other"],
  ];
  for (const [request, kind] of cases) {
    assert.equal(requestKind(request, ["List every call site of x."]), kind);
  }
});

function summaryPrompt(target: number, turns: string[], previous?: string[]): string {
  const block = turns.join("\n\n");
  const head = "You are a summarization agent creating a context checkpoint.\n\n";
  const tail =
    `\n\nUse this exact structure:\n\n## Goal\n[…]\n\nTarget ~${target} tokens. Be CONCRETE.`;
  if (!previous) return `${head}TURNS TO SUMMARIZE:\n${block}${tail}`;
  const summary = [
    STAND_IN_HEADING,
    ...previous.map((line) => `- ${line}`),
    "",
    "## Anchor Index",
    "x",
  ].join("\n");
  return `${head}PREVIOUS SUMMARY:\n${summary}\n\nNEW TURNS TO INCORPORATE:\n${block}\n\n` +
    `Update the summary using this exact structure. PRESERVE…${tail}`;
}

Deno.test("standInSummary() keeps every turn whole when they fit the stated target", () => {
  const answer = standInSummary(
    summaryPrompt(1000, ["[USER]: fix the\n\nbuild", "[TOOL RESULT call_001]: ok"]),
  );
  assert.ok("summary" in answer);
  assert.equal(
    answer.summary,
    `${STAND_IN_HEADING}\n- [USER]: fix the build\n- [TOOL RESULT call_001]: ok`,
  );
});

Deno.test("standInSummary() cuts every line to the longest length that fits the target", () => {
  const turns = ["[USER]: " + "a".repeat(900), "[ASSISTANT]: " + "b".repeat(900)];
  const answer = standInSummary(summaryPrompt(100, turns)); // 400 characters
  assert.ok("summary" in answer);
  const lines = answer.summary.split("\n");
  assert.equal(lines.length, 3);
  assert.ok(answer.summary.length <= 400);
  // One character more per line would not fit.
  const longer = [STAND_IN_HEADING, ...turns.map((t) => `- ${t.slice(0, answer.lineChars + 1)}`)]
    .join("\n");
  assert.ok(longer.length > 400);
  assert.equal(lines[1], `- ${turns[0]!.slice(0, answer.lineChars)}`);
});

Deno.test("standInSummary() carries its previous lines forward and drops the oldest when full", () => {
  const answer = standInSummary(
    summaryPrompt(1000, ["[USER]: next"], ["[USER]: first", "[ASSISTANT]: done"]),
  );
  assert.ok("summary" in answer);
  assert.equal(
    answer.summary,
    `${STAND_IN_HEADING}\n- [USER]: first\n- [ASSISTANT]: done\n- [USER]: next`,
  );
  const many = Array.from(
    { length: 30 },
    (_, i) => `[USER]: ${String(i).padStart(2, "0")} ${"x".repeat(200)}`,
  );
  const full = standInSummary(summaryPrompt(500, many));
  assert.ok("summary" in full);
  assert.equal(full.lineChars, MIN_LINE_CHARS);
  assert.ok(full.summary.length <= 2000);
  assert.ok(full.summary.endsWith(many[29]!.slice(0, MIN_LINE_CHARS)), "the newest line is kept");
  assert.ok(!full.summary.includes("[USER]: 00 "), "the oldest line is dropped");
});

Deno.test("standInSummary() names what it cannot read in a prompt", () => {
  assert.deepEqual(standInSummary("TURNS TO SUMMARIZE:\n[USER]: x"), {
    problem: "the summary prompt states no token target",
  });
});

function request(messages: ChatMessage[]): ChatRequest {
  return { messages: [{ role: "system", content: "sys" }, ...messages], tools: TOOLS };
}

Deno.test("StoryPlayer plays the step after the newest result it gave, whatever came between", () => {
  const story = ledgerStory(1);
  const player = new StoryPlayer(story, "/project");
  const first = story.turns[0]!;
  const opening = player.turn(request([{ role: "user", content: first.prompt }]));
  assert.equal(opening.toolCalls[0]?.id, callId(0));
  const summary = {
    role: "user",
    content: "[CONTEXT COMPACTION — REFERENCE ONLY] … [TOOL RESULT call_009]",
  };
  const after = player.turn(request([
    summary,
    { role: "assistant", tool_calls: [{ id: callId(0) }] },
    { role: "tool", tool_call_id: callId(0), content: "x" },
    { role: "assistant", tool_calls: [{ id: callId(3) }] },
    { role: "tool", tool_call_id: callId(3), content: "x" },
  ]));
  assert.equal(after.toolCalls[0]?.id, callId(4));
  assert.equal(after.content, placedSteps(story)[4]!.note);
  const last = turnStarts(story)[1]! - 1;
  const end = player.turn(request([
    { role: "user", content: first.prompt },
    { role: "assistant", tool_calls: [{ id: callId(last) }] },
    { role: "tool", tool_call_id: callId(last), content: "x" },
  ]));
  assert.deepEqual(end, { content: first.closing, toolCalls: [] });
  const second = story.turns[1]!;
  const resumed = player.turn(request([
    { role: "tool", tool_call_id: callId(last), content: "x" },
    { role: "assistant", content: first.closing },
    { role: "user", content: second.prompt },
  ]));
  assert.equal(resumed.toolCalls[0]?.id, callId(last + 1));
  assert.deepEqual(player.problems, []);
});
