/** `vcc serve` as a process: what it writes, how it ends, and what it loads. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DEFAULT_MAX_MESSAGE_BYTES, readServeArgs } from "../../src/bridge/server.ts";
import { DatabaseSync } from "node:sqlite";
import { scriptRunner } from "../../src/hermes/self_command.ts";
import { schemaStatements } from "../../src/store/fixture/schema.ts";

const main = fileURLToPath(new URL("../../main.ts", import.meta.url));
const serverModule = fileURLToPath(new URL("../../src/bridge/server.ts", import.meta.url));
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function spawnServer(args: string[] = []): Deno.ChildProcess {
  const [deno, ...run] = scriptRunner();
  return new Deno.Command(deno!, {
    args: [...run, main, "serve", ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
}

interface Session {
  readonly responses: Record<string, unknown>[];
  readonly stdoutLines: string[];
  readonly stderr: string;
  readonly code: number;
}

/** Writes `input` to a fresh server, closes its input and collects what it wrote. */
async function serve(input: (string | Uint8Array)[], args: string[] = []): Promise<Session> {
  const child = spawnServer(args);
  const writer = child.stdin.getWriter();
  for (const part of input) {
    await writer.write(typeof part === "string" ? encoder.encode(part) : part);
  }
  await writer.close();
  const output = await child.output();
  const stdoutLines = decoder.decode(output.stdout).split("\n").filter((l) => l !== "");
  return {
    responses: stdoutLines.map((l) => JSON.parse(l) as Record<string, unknown>),
    stdoutLines,
    stderr: decoder.decode(output.stderr),
    code: output.code,
  };
}

function request(id: number | string | undefined, method: string, params?: unknown): string {
  const message = { jsonrpc: "2.0", ...(id === undefined ? {} : { id }), method, params };
  return `${JSON.stringify(message)}\n`;
}

const initialize = request(0, "initialize", { protocolVersion: 1 });

function errorCode(response: Record<string, unknown> | undefined): unknown {
  return (response?.error as { code?: unknown } | undefined)?.code;
}

Deno.test("vcc serve answers every bad line, keeps serving and writes only protocol to stdout", async () => {
  const session = await serve([
    request(1, "ping"),
    initialize,
    "this is not json\n",
    new Uint8Array([0xc3, 0x28, 0x0a]),
    "[1,2,3]\n",
    request(2, "no/such/method"),
    request(undefined, "notification/ignored"),
    request(3, "project", { messages: "nope" }),
    request(4, "project", { messages: [{ role: "user", content: "still here" }] }),
    "\n",
    request("last", "ping"),
  ]);
  assert.equal(session.code, 0);
  for (const line of session.stdoutLines) {
    assert.equal((JSON.parse(line) as { jsonrpc?: unknown }).jsonrpc, "2.0", line);
  }
  assert.deepEqual(
    session.responses.map((r) => [r.id, errorCode(r) ?? "ok"]),
    [
      [1, -32002],
      [0, "ok"],
      [null, -32700],
      [null, -32700],
      [null, -32600],
      [2, -32601],
      [3, -32602],
      [4, "ok"],
      ["last", "ok"],
    ],
  );
  assert.match(session.stderr, /standard input closed, exiting/);
});

Deno.test("vcc serve answers a line over --max-message-bytes and reads the next one", async () => {
  const big = request(7, "project", { messages: [{ role: "user", content: "x".repeat(5000) }] });
  const session = await serve([initialize, big, request(8, "ping")], [
    "--max-message-bytes",
    "2048",
  ]);
  assert.deepEqual(session.responses.map((r) => [r.id, errorCode(r) ?? "ok"]), [
    [0, "ok"],
    [7, -32001],
    [8, "ok"],
  ]);
  const init = session.responses[0]!.result as { limits: { maxMessageBytes: number } };
  assert.equal(init.limits.maxMessageBytes, 2048);
});

Deno.test("vcc serve reads a request written a few bytes at a time", async () => {
  const text = request(1, "project", { messages: [{ role: "user", content: "naïve café ✓" }] });
  const bytes = encoder.encode(text);
  const pieces = Array.from(
    { length: Math.ceil(bytes.length / 3) },
    (_, i) => bytes.subarray(i * 3, i * 3 + 3),
  );
  const session = await serve([initialize, ...pieces]);
  assert.equal(errorCode(session.responses[1]), undefined);
  assert.equal(session.responses[1]!.id, 1);
});

Deno.test("vcc serve stops after shutdown without reading further", async () => {
  const session = await serve([initialize + request(1, "shutdown") + request(2, "ping")]);
  assert.equal(session.code, 0);
  assert.deepEqual(session.responses.map((r) => r.id), [0, 1]);
  assert.equal(session.responses[1]!.result, null);
});

Deno.test("vcc serve exits cleanly on SIGTERM", async () => {
  const child = spawnServer();
  const stderr = child.stderr.getReader();
  let seen = "";
  while (!seen.includes("serving")) {
    const { value, done } = await stderr.read();
    if (done) break;
    seen += decoder.decode(value);
  }
  child.kill("SIGTERM");
  const status = await child.status;
  for (let chunk = await stderr.read(); !chunk.done; chunk = await stderr.read()) {
    seen += decoder.decode(chunk.value);
  }
  await child.stdin.close().catch(() => {});
  await child.stdout.cancel();
  assert.equal(status.code, 0);
  assert.match(seen, /SIGTERM received, exiting/);
});

Deno.test("vcc serve rejects unknown arguments with exit code 2", async () => {
  const session = await serve([], ["--port", "80"]);
  assert.equal(session.code, 2);
  assert.match(session.stderr, /Unexpected option or subcommand: `--port`/);
  assert.deepEqual(session.stdoutLines, []);
});

Deno.test("vcc serve rejects a --max-message-bytes under the minimum", async () => {
  const session = await serve([initialize], ["--max-message-bytes", "10"]);
  assert.equal(session.code, 2);
  assert.match(session.stderr, /--max-message-bytes/);
  assert.deepEqual(session.stdoutLines, []);
});

Deno.test("readServeArgs() takes only a well-formed command line, leaving the rest to the CLI", () => {
  assert.deepEqual(readServeArgs([]), { maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES });
  assert.deepEqual(readServeArgs(["--max-message-bytes", "2048"]), { maxMessageBytes: 2048 });
  assert.deepEqual(readServeArgs(["--max-message-bytes=4096"]), { maxMessageBytes: 4096 });
  for (
    const args of [
      ["--help"],
      ["-h"],
      ["--port", "80"],
      ["--max-message-bytes"],
      ["--max-message-bytes", "10"],
      ["--max-message-bytes", "1e6"],
      ["--max-message-bytes", "2048", "extra"],
      ["--max-message-bytes=2048", "2048"],
    ]
  ) {
    assert.equal(readServeArgs(args), undefined, args.join(" "));
  }
});

Deno.test("vcc serve loads neither the CLI nor any npm package", async () => {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", serverModule],
    stdout: "piped",
    stderr: "null",
  }).output();
  const graph = JSON.parse(decoder.decode(info.stdout)) as { modules: { specifier: string }[] };
  const specifiers = graph.modules.map((module) => module.specifier);
  assert.ok(specifiers.some((s) => s.endsWith("/src/core/mod.ts")));
  assert.deepEqual(specifiers.filter((s) => s.includes("/src/cli/") || s.startsWith("npm:")), []);
});

Deno.test("vcc project --db gives the body vcc serve gives for the same request", async () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/state.db`;
  const db = new DatabaseSync(path);
  for (const statement of schemaStatements("v31")) db.exec(statement);
  db.prepare("INSERT INTO sessions (id, started_at) VALUES ('s', 1000)").run();
  const calls = JSON.stringify([{
    id: "call_1",
    type: "function",
    function: { name: "terminal", arguments: JSON.stringify({ command: "pytest -q" }) },
  }]);
  const output = JSON.stringify({ output: "E   KeyError: 'sku'\n1 failed", exit_code: 1 });
  const insert = db.prepare(
    "INSERT INTO messages (id, session_id, role, content, tool_calls, tool_call_id, timestamp) " +
      "VALUES (?, 's', ?, ?, ?, ?, ?)",
  );
  insert.run(1, "user", "Make pytest pass.", null, null, 1000);
  insert.run(2, "assistant", "", calls, null, 1001);
  insert.run(3, "tool", output, null, "call_1", 1002);
  db.close();
  // The window as Hermes hands it over: the result pruned to its stub, no row ids.
  const messages = [
    { role: "user", content: "Make pytest pass.", timestamp: 1000 },
    { role: "assistant", content: "", tool_calls: JSON.parse(calls), timestamp: 1001 },
    {
      role: "tool",
      tool_call_id: "call_1",
      content: "[terminal] ran `pytest -q` -> exit 1, 2 lines output",
      timestamp: 1002,
    },
  ];
  const window = `${dir}/window.json`;
  Deno.writeTextFileSync(window, JSON.stringify({ messages, session_id: "s" }));
  const params = { messages, session_id: "s", store: { path, session_id: "s" } };
  const session = await serve([initialize, request(1, "project", params)]);
  const served = (session.responses[1]?.result as { body: string }).body;
  const [deno, ...runArgs] = scriptRunner();
  const projected = await new Deno.Command(deno!, {
    args: [...runArgs, main, "project", window, "--db", path],
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(projected.code, 0, decoder.decode(projected.stderr));
  assert.equal(decoder.decode(projected.stdout), `${served}\n`);
  assert.match(served, /KeyError/, "the stored output, not the stub, was projected");
  assert.match(served, /\[#3\]/, "the result cites its stored row");
});
