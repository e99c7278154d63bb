import type { Projection, ProjectOptions } from "../core/mod.ts";
import { PROTOCOL_VERSION } from "./_dispatch.ts";
import type { RpcError } from "./_jsonrpc.ts";

/** The server's side of the handshake. */
export interface ServerInfo {
  readonly protocolVersion: number;
  readonly version: string;
}

/** How long the client waits for any one answer before it gives up on the server. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;
const STDERR_TAIL_LINES = 5;

/**
 * A Deno client of `vcc serve` for the bench and `vcc hermes doctor`: starts the server, performs
 * the `initialize` handshake and sends one request at a time. Errors name what failed and carry the
 * server's last standard-error lines.
 */
export class ServeClient implements AsyncDisposable {
  #server: ServerInfo | undefined;
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #lines: AsyncIterator<string>;
  readonly #stderr: string[];
  readonly #timeoutMs: number;
  #nextId = 2;

  private constructor(child: Deno.ChildProcess, timeoutMs: number) {
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#lines = splitLines(child.stdout.pipeThrough(new TextDecoderStream()))[
      Symbol.asyncIterator
    ]();
    this.#stderr = [];
    void keepTail(child.stderr, this.#stderr);
    this.#timeoutMs = timeoutMs;
  }

  /** What the server said about itself in the handshake. */
  get server(): ServerInfo {
    if (!this.#server) throw new Error("vcc serve has not completed the handshake");
    return this.#server;
  }

  /** Starts `argv` (a `vcc serve` command) and performs the handshake. */
  static async start(
    argv: readonly string[],
    timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ): Promise<ServeClient> {
    const [program, ...args] = argv;
    if (!program) throw new Error("Cannot start vcc serve: the command is empty");
    const child = new Deno.Command(program, {
      args,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    }).spawn();
    const client = new ServeClient(child, timeoutMs);
    try {
      const result = await client.#exchange(1, "initialize", { protocolVersion: PROTOCOL_VERSION });
      const info = result as { protocolVersion?: unknown; serverInfo?: { version?: unknown } };
      if (info.protocolVersion !== PROTOCOL_VERSION) {
        client.#fail(
          `vcc serve speaks protocol ${info.protocolVersion}, expected ${PROTOCOL_VERSION}`,
        );
      }
      client.#server = {
        protocolVersion: PROTOCOL_VERSION,
        version: String(info.serverInfo?.version),
      };
      return client;
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  /** Sends one request and waits for its answer; a JSON-RPC error becomes a thrown `Error`. */
  request(method: string, params: unknown): Promise<unknown> {
    return this.#exchange(this.#nextId++, method, params);
  }

  /** Projects a window through the server. */
  async project(messages: readonly unknown[], options: ProjectOptions = {}): Promise<Projection> {
    return await this.request("project", {
      messages,
      session_id: options.sessionId ?? null,
      previous: options.previous ?? null,
      focus: options.focus ?? null,
      budget_tokens: options.budgetTokens ?? null,
    }) as Projection;
  }

  /** Asks the server to shut down, closes its input and waits for it to exit. */
  async close(): Promise<void> {
    try {
      await this.request("shutdown", {});
    } catch {
      // Already gone or not answering: closing its input below ends it either way.
    }
    await this.#writer.close().catch(() => {});
    await this.#child.stdout.cancel().catch(() => {});
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), this.#timeoutMs);
    await this.#child.status;
    clearTimeout(timer);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #exchange(id: number, method: string, params: unknown): Promise<unknown> {
    const line = `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`;
    await this.#writer.write(new TextEncoder().encode(line)).catch(() =>
      this.#fail("vcc serve is not reading its input")
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(this.#error(`vcc serve gave no answer within ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
    });
    try {
      const next = await Promise.race([this.#lines.next(), timeout]);
      if (next.done) return this.#fail("vcc serve exited before answering");
      let response: { id?: unknown; result?: unknown; error?: RpcError };
      try {
        response = JSON.parse(next.value);
      } catch {
        return this.#fail(
          `vcc serve wrote a line that is not JSON: ${JSON.stringify(next.value.slice(0, 80))}`,
        );
      }
      if (response.id !== id) {
        return this.#fail(`vcc serve answered id ${response.id}, expected ${id}`);
      }
      if (response.error) {
        const detail = (response.error.data as { detail?: unknown } | undefined)?.detail;
        return this.#fail(
          `vcc serve answered an error: ${response.error.message}${detail ? ` (${detail})` : ""}`,
        );
      }
      return response.result;
    } finally {
      clearTimeout(timer);
    }
  }

  #error(what: string): Error {
    const tail = this.#stderr.slice(-STDERR_TAIL_LINES).join("\n").trim();
    return new Error(tail ? `${what}; its last output:\n${tail}` : what);
  }

  #fail(what: string): never {
    throw this.#error(what);
  }
}

async function keepTail(stream: ReadableStream<Uint8Array>, tail: string[]): Promise<void> {
  for await (const line of splitLines(stream.pipeThrough(new TextDecoderStream()))) {
    tail.push(line);
    if (tail.length > STDERR_TAIL_LINES) tail.shift();
  }
}

async function* splitLines(text: ReadableStream<string>): AsyncGenerator<string> {
  let pending = "";
  for await (const chunk of text) {
    pending += chunk;
    let end = pending.indexOf("\n");
    while (end >= 0) {
      yield pending.slice(0, end);
      pending = pending.slice(end + 1);
      end = pending.indexOf("\n");
    }
  }
  if (pending !== "") yield pending;
}
