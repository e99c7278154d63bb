/** The header line: how it tells the agent to open a cited message in the running Hermes. */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";

const WINDOW = [{ role: "user", content: "Fix it.", _row_id: 3 }];
const header = (recall?: object) =>
  project(WINDOW, { sessionId: "s1", ...(recall ? { recall } : {}) }).body.split("\n")[0]!;

Deno.test("the header opens a message with session_search and a window of one", () => {
  assert.match(
    header(),
    /open it with session_search\(session_id='s1', around_message_id=N, window=1\);/,
  );
});

Deno.test("the header names the active profile, so a search of the agent's own session is allowed", () => {
  assert.match(
    header({ profile: "default" }),
    /session_search\(session_id='s1', around_message_id=N, window=1, profile='default'\);/,
  );
});

Deno.test("the header calls session_search through tool_call where Hermes defers it", () => {
  assert.match(
    header({ via: "tool_call", profile: "work" }),
    /open it with tool_call\(calls=\[\{"name": "session_search", "arguments": \{"session_id": "s1", "around_message_id": N, "window": 1, "profile": "work"\}\}\]\);/,
  );
});

Deno.test("the header leaves out a profile name that is no profile name", () => {
  for (const profile of ["x'); import os", "", "a b", "-x"]) {
    assert.match(header({ profile }), /window=1\);/, profile);
  }
});

Deno.test("the header offers a terminal command where session_search may refuse the session", () => {
  const shell = "vcc show s1 --around N --window 1 --db '/home/u/.hermes/state.db'";
  assert.match(
    header({ profile: "default", shell }),
    /profile='default'\), or where that is refused, run `vcc show s1 --around N --window 1 --db '\/home\/u\/\.hermes\/state\.db'` in a terminal;/,
  );
  for (const unusable of ["vcc show s1 --around 5", `${"x".repeat(700)} N`]) {
    assert.doesNotMatch(header({ shell: unusable }), /in a terminal/, unusable.slice(0, 20));
  }
});
