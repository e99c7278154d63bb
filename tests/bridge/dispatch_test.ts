import assert from "node:assert/strict";
import { buildAnchorIndex, PYTHON_UNICODE_VERSION } from "../../src/anchors/mod.ts";
import { project } from "../../src/core/mod.ts";
import { Dispatcher, PROTOCOL_VERSION } from "../../src/bridge/_dispatch.ts";
import type { Response } from "../../src/bridge/_jsonrpc.ts";

const encoder = new TextEncoder();

function dispatcher(projector = project): Dispatcher {
  return new Dispatcher({ version: "9.8.7", maxMessageBytes: 1024, project: projector });
}

function initialized(projector = project): Dispatcher {
  const server = dispatcher(projector);
  server.handleLine(
    encoder.encode(line({ id: 0, method: "initialize", params: { protocolVersion: 1 } })),
  );
  return server;
}

function line(request: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", ...request });
}

function send(server: Dispatcher, text: string | Uint8Array): Response | undefined {
  return server.handleLine(typeof text === "string" ? encoder.encode(text) : text).response;
}

/** `[code, id]` of an error response, `"ok"` for a result, `"none"` for no response. */
function outcome(response: Response | undefined): [number, unknown] | "ok" | "none" {
  if (response === undefined) return "none";
  return "error" in response ? [response.error.code, response.id] : "ok";
}

const nested = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;

const hostile: [string, string | Uint8Array, ReturnType<typeof outcome>][] = [
  ["truncated JSON", '{"jsonrpc":"2.0","id":1,', [-32700, null]],
  ["not UTF-8", new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), [-32700, null]],
  ["a byte order mark before the JSON", `\uFEFF${line({ id: 1, method: "ping" })}`, "ok"],
  ["a JSON array (batch)", `[${line({ id: 1, method: "ping" })}]`, [-32600, null]],
  ["an empty batch", "[]", [-32600, null]],
  ["a bare number", "42", [-32600, null]],
  ["null", "null", [-32600, null]],
  ["an empty object", "{}", [-32600, null]],
  ["no jsonrpc member", '{"id":3,"method":"ping"}', [-32600, 3]],
  ["jsonrpc 1.0", '{"jsonrpc":"1.0","id":3,"method":"ping"}', [-32600, 3]],
  ["no method", line({ id: 4 }), [-32600, 4]],
  ["a numeric method", line({ id: 4, method: 7 }), [-32600, 4]],
  ["an object id", line({ id: { x: 1 }, method: "ping" }), [-32600, null]],
  ["a boolean id", line({ id: true, method: "ping" }), [-32600, null]],
  ["an unknown method", line({ id: 5, method: "rm -rf" }), [-32601, 5]],
  ["an unknown notification", line({ method: "nope" }), "none"],
  ["a cancel notification", line({ method: "$/cancelRequest", params: { id: 1 } }), "none"],
  ["a string id", line({ id: "req-1", method: "ping" }), "ok"],
  ["a huge id", '{"jsonrpc":"2.0","id":1e308,"method":"ping"}', "ok"],
  ["project without params", line({ id: 6, method: "project" }), [-32602, 6]],
  ["project with array params", line({ id: 6, method: "project", params: [] }), [-32602, 6]],
  ["messages not an array", line({ id: 6, method: "project", params: { messages: {} } }), [
    -32602,
    6,
  ]],
  [
    "a zero budget",
    line({ id: 6, method: "project", params: { messages: [], budget_tokens: 0 } }),
    [-32602, 6],
  ],
  [
    "a fractional budget",
    line({ id: 6, method: "project", params: { messages: [], budget_tokens: 1.5 } }),
    [-32602, 6],
  ],
  [
    "a budget given as text",
    line({ id: 6, method: "project", params: { messages: [], budget_tokens: "9" } }),
    [-32602, 6],
  ],
  [
    "a numeric session id",
    line({ id: 6, method: "project", params: { messages: [], session_id: 1 } }),
    [-32602, 6],
  ],
  [
    "messages of every wrong type",
    line({ id: 7, method: "project", params: { messages: [null, 1, "x", [], { role: 5 }] } }),
    "ok",
  ],
  [
    "a __proto__ member",
    '{"jsonrpc":"2.0","id":8,"method":"project","params":{"messages":[],"__proto__":{"budget_tokens":"x"}}}',
    "ok",
  ],
  [
    "params nested 100,000 deep",
    `{"jsonrpc":"2.0","id":9,"method":"project","params":{"messages":${nested}}}`,
    "ok",
  ],
  ["anchors without params", line({ id: 10, method: "anchors" }), [-32602, 10]],
  [
    "anchors with messages not an array",
    line({ id: 10, method: "anchors", params: { messages: "#1234" } }),
    [-32602, 10],
  ],
  [
    "anchors with a row that is not an object",
    line({ id: 10, method: "anchors", params: { messages: [{ content: "#1234" }, "#5678"] } }),
    [-32602, 10],
  ],
  [
    "anchors with params nested 100,000 deep",
    `{"jsonrpc":"2.0","id":10,"method":"anchors","params":{"messages":${nested}}}`,
    [-32602, 10],
  ],
  [
    "project asking for anchors with text",
    line({ id: 11, method: "project", params: { messages: [], anchors: "yes" } }),
    [-32602, 11],
  ],
];

for (const [name, text, expected] of hostile) {
  Deno.test(`Dispatcher answers ${name} and keeps serving`, () => {
    const server = initialized();
    const reply = server.handleLine(typeof text === "string" ? encoder.encode(text) : text);
    const got = outcome(reply.response);
    assert.deepEqual(got, expected);
    assert.equal(reply.stop, false);
    assert.equal(outcome(send(server, line({ id: 99, method: "ping" }))), "ok");
  });
}

Deno.test("Dispatcher's parse errors give a position, never the request's text", () => {
  const secret = "SECRET-transcript-words";
  const unterminated = `{"jsonrpc":"2.0","id":1,"params":{"content":"${secret}`;
  const control = `{"a":"${secret}\u0001"}`;
  const forged = `{"${secret}" in JSON at position 3}`;
  /** Each line, and where it stops being JSON, counted in the line itself. */
  const lines: [string, number | "none" | "end"][] = [
    [unterminated, unterminated.length],
    [control, control.indexOf("\u0001")],
    [forged, forged.indexOf("in JSON")],
    [`{"a":1} ${secret}`, '{"a":1} '.length],
    [secret, "none"],
    [`[1,2,${secret}]`, "none"],
    ["tru", "end"],
  ];
  for (const [text, stop] of lines) {
    const response = send(initialized(), text);
    assert.ok(response && "error" in response, text);
    const message = stop === "end"
      ? "Parse error: the JSON ends too early"
      : `Parse error: not valid JSON${stop === "none" ? "" : ` at position ${stop}`}`;
    assert.deepEqual(response.error, { code: -32700, message }, text);
  }
});

Deno.test("Dispatcher ignores blank lines", () => {
  assert.equal(send(initialized(), "  \r"), undefined);
});

Deno.test("Dispatcher refuses requests before initialize, except initialize itself", () => {
  const server = dispatcher();
  assert.deepEqual(outcome(send(server, line({ id: 1, method: "ping" }))), [-32002, 1]);
  assert.deepEqual(
    outcome(send(server, line({ id: 2, method: "project", params: { messages: [] } }))),
    [-32002, 2],
  );
  const init = send(server, line({ id: 3, method: "initialize", params: { protocolVersion: 1 } }));
  assert.deepEqual(init, {
    jsonrpc: "2.0",
    id: 3,
    result: {
      protocolVersion: PROTOCOL_VERSION,
      serverInfo: { name: "vcc", version: "9.8.7", anchorUnicodeVersion: PYTHON_UNICODE_VERSION },
      limits: { maxMessageBytes: 1024 },
    },
  });
  assert.equal(outcome(send(server, line({ id: 4, method: "ping" }))), "ok");
});

Deno.test("Dispatcher rejects an unsupported protocol version with what it supports", () => {
  const server = dispatcher();
  const response = send(
    server,
    line({ id: 1, method: "initialize", params: { protocolVersion: 2 } }),
  );
  assert.deepEqual(response, {
    jsonrpc: "2.0",
    id: 1,
    error: {
      code: -32602,
      message: "Unsupported protocol version",
      data: { supported: [1], requested: 2 },
    },
  });
  assert.deepEqual(outcome(send(server, line({ id: 2, method: "ping" }))), [-32002, 2]);
});

Deno.test("Dispatcher projects with the request's options", () => {
  const seen: unknown[] = [];
  const server = initialized((window, options) => {
    seen.push(window, options);
    return project(window, options);
  });
  const params = {
    messages: [{ role: "user", content: "hi" }],
    session_id: "s1",
    budget_tokens: 500,
    focus: "f",
    previous: null,
  };
  const response = send(server, line({ id: 1, method: "project", params }));
  assert.ok(response && "result" in response);
  assert.deepEqual(Object.keys(response.result as object), ["body", "stats", "refs"]);
  assert.deepEqual(seen, [params.messages, { sessionId: "s1", budgetTokens: 500, focus: "f" }]);
});

Deno.test("Dispatcher names the reference each message of the window is cited by", () => {
  const params = {
    messages: [{ role: "user", content: "a", _row_id: 12 }, "not a message", { role: "user" }],
  };
  const response = send(initialized(), line({ id: 1, method: "project", params }));
  assert.ok(response && "result" in response);
  assert.deepEqual((response.result as { refs: unknown }).refs, ["#12", null, "t3"]);
});

Deno.test("Dispatcher projects what its resolver makes of the request", () => {
  const seen: unknown[] = [];
  const stored = [{ role: "user", content: "from the store", _row_id: 40 }];
  const server = new Dispatcher({
    version: "9.8.7",
    maxMessageBytes: 1 << 20,
    project: (window, options) => {
      seen.push(window, options.previous);
      return project(window, options);
    },
    resolve: (request) => {
      seen.push(request.messages.length, request.store);
      const options = { ...request.options, previous: "## Goal\nstored" };
      return { messages: stored, window: stored, options };
    },
  });
  send(server, line({ id: 0, method: "initialize", params: { protocolVersion: 1 } }));
  const store = { path: "/h/state.db", session_id: "s1" };
  const params = { messages: [{ role: "user", content: "given" }], session_id: "s1", store };
  const response = send(server, line({ id: 1, method: "project", params }));
  assert.ok(response && "result" in response);
  assert.deepEqual(seen, [1, { path: "/h/state.db", sessionId: "s1" }, stored, "## Goal\nstored"]);
  assert.deepEqual(
    (response.result as { refs: unknown }).refs,
    ["#40"],
    "refs of what was projected",
  );
});

Deno.test("Dispatcher builds the anchor index of the window Hermes passed, not of its originals", () => {
  const server = new Dispatcher({
    version: "9.8.7",
    maxMessageBytes: 1 << 20,
    project,
    resolve: (request) => {
      const stored = [{ role: "tool", content: "KeyError in lib/other.py" }];
      return { messages: stored, window: stored, options: request.options };
    },
  });
  send(server, line({ id: 0, method: "initialize", params: { protocolVersion: 1 } }));
  const store = { path: "/h/state.db", session_id: "s1" };
  const params = { messages: ANCHOR_WINDOW, session_id: "s1", store, anchors: true };
  const response = send(server, line({ id: 1, method: "project", params }));
  assert.ok(response && "result" in response);
  const { anchors } = response.result as { anchors: string };
  assert.match(anchors, /src\/app\/main\.py/);
  assert.doesNotMatch(anchors, /lib\/other\.py/, "Hermes checks it against its own builder");
});

Deno.test("Dispatcher turns a projector exception into an internal error", () => {
  const server = initialized(() => {
    throw new RangeError("Maximum call stack size exceeded");
  });
  const response = send(server, line({ id: 1, method: "project", params: { messages: [] } }));
  assert.deepEqual(response, {
    jsonrpc: "2.0",
    id: 1,
    error: {
      code: -32603,
      message: "Projection failed",
      data: { detail: "RangeError: Maximum call stack size exceeded" },
    },
  });
});

Deno.test("Dispatcher answers shutdown, then asks to stop", () => {
  const reply = initialized().handleLine(encoder.encode(line({ id: 1, method: "shutdown" })));
  assert.deepEqual(reply, { response: { jsonrpc: "2.0", id: 1, result: null }, stop: true });
});

Deno.test("Dispatcher answers an oversized line with the id it can still read", () => {
  const server = initialized();
  const head = encoder.encode('{"jsonrpc":"2.0","id":41,"method":"project","params":{"messages":[');
  assert.deepEqual(server.handleOversized(5000, head).response, {
    jsonrpc: "2.0",
    id: 41,
    error: {
      code: -32001,
      message: "Message too large: 5000 bytes",
      data: { length: 5000, maxMessageBytes: 1024 },
    },
  });
  const unreadable =
    server.handleOversized(5000, encoder.encode('{"params":{"messages":[')).response;
  assert.ok(unreadable && "error" in unreadable && unreadable.id === null);
});

const ANCHOR_WINDOW = [
  { role: "user", content: "Fix #1234 in src/app/main.py" },
  { role: "tool", content: "ValueError: bad input in src/app/main.py" },
];

Deno.test("Dispatcher answers anchors with Hermes's anchor index of the messages", () => {
  const response = send(
    initialized(),
    line({ id: 1, method: "anchors", params: { messages: ANCHOR_WINDOW } }),
  );
  assert.deepEqual(response, {
    jsonrpc: "2.0",
    id: 1,
    result: { index: buildAnchorIndex(ANCHOR_WINDOW) },
  });
  assert.match(buildAnchorIndex(ANCHOR_WINDOW), /\nfiles: src\/app\/main\.py\(x2\)\n/);
});

Deno.test("Dispatcher adds the anchor index to a projection only when asked", () => {
  const server = initialized();
  const result = (params: Record<string, unknown>) => {
    const response = send(server, line({ id: 1, method: "project", params }));
    assert.ok(response && "result" in response);
    return response.result as Record<string, unknown>;
  };
  const asked = result({ messages: ANCHOR_WINDOW, anchors: true });
  assert.deepEqual(Object.keys(asked), ["body", "stats", "refs", "anchors"]);
  assert.equal(asked.anchors, buildAnchorIndex(ANCHOR_WINDOW));
  for (const anchors of [false, null]) {
    assert.deepEqual(Object.keys(result({ messages: ANCHOR_WINDOW, anchors })), [
      "body",
      "stats",
      "refs",
    ]);
  }
  // Hermes's builder raises on a row that is not an object, so there is no index to give.
  assert.deepEqual(Object.keys(result({ messages: [...ANCHOR_WINDOW, null], anchors: true })), [
    "body",
    "stats",
    "refs",
  ]);
});

Deno.test("Dispatcher refuses anchors before initialize", () => {
  const response = send(dispatcher(), line({ id: 1, method: "anchors", params: { messages: [] } }));
  assert.deepEqual(outcome(response), [-32002, 1]);
});

Deno.test("Dispatcher turns an anchor builder exception into an internal error", () => {
  const server = new Dispatcher({
    version: "9.8.7",
    maxMessageBytes: 1024,
    project,
    buildAnchorIndex: () => {
      throw new RangeError("Invalid string length");
    },
  });
  send(server, line({ id: 0, method: "initialize", params: { protocolVersion: 1 } }));
  const response = send(server, line({ id: 1, method: "anchors", params: { messages: [] } }));
  assert.deepEqual(response, {
    jsonrpc: "2.0",
    id: 1,
    error: {
      code: -32603,
      message: "Anchor index failed",
      data: { detail: "RangeError: Invalid string length" },
    },
  });
});
