import { buildAnchorIndex, PYTHON_UNICODE_VERSION } from "../anchors/mod.ts";
import { type Projection, type ProjectOptions, refLabel, windowRef } from "../core/mod.ts";
import {
  ErrorCode,
  failure,
  isResponse,
  leadingRequestId,
  readRequest,
  type Request,
  type Response,
  success,
} from "./_jsonrpc.ts";
import { type ProjectRequest, ProjectRequestError, readProjectRequest } from "../wire/mod.ts";

/** The bridge protocol version; bumped only for changes an older client cannot handle. */
export const PROTOCOL_VERSION = 1;

/** What a {@linkcode Dispatcher} needs: the server version, its limits and the projector. */
export interface DispatcherOptions {
  /** Reported as `serverInfo.version`; clients refuse a version they were not built for. */
  readonly version: string;
  /** The longest request line, in bytes, the server reads. */
  readonly maxMessageBytes: number;
  /** The projector, `project` from `src/core` outside tests. */
  readonly project: (window: unknown, options: ProjectOptions) => Projection;
  /** The anchor-index builder; `buildAnchorIndex` from `src/anchors` unless a test replaces it. */
  readonly buildAnchorIndex?: (turns: unknown) => string;
  /**
   * What to project for a request (the server reads its store: `projectionInput`); without it,
   * the request as given.
   */
  readonly resolve?: (request: ProjectRequest) => {
    /** The request's messages one for one (each maybe matched to its stored row): the refs. */
    readonly messages: unknown[];
    /** What to project. */
    readonly window: unknown[];
    readonly options: ProjectOptions;
  };
}

/** What to do after one line: the response to write (none for notifications), and whether to stop. */
export interface Reply {
  readonly response?: Response;
  readonly stop: boolean;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * The bridge's JSON-RPC methods (`initialize`, `project`, `anchors`, `ping`, `shutdown`) over one
 * connection. `initialize` reports, as `serverInfo.anchorUnicodeVersion`, the Unicode version
 * (Python's `unicodedata.unidata_version`) whose character classes the anchor builder follows.
 * `project` answers `{body, stats, refs}` (`refs`: the reference label each message of the window
 * is cited by, `null` for an entry that is no message) and, when its params ask with
 * `anchors: true`, the anchor index as `anchors`; `anchors` returns Hermes's anchor index for
 * `{messages}` as `{index}`. Pure apart from the connection's state and what `resolve` reads:
 * it turns each incoming line into at most one response and never throws, so one bad line
 * cannot end the server.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PYTHON_UNICODE_VERSION } from "../anchors/mod.ts";
 * import { project } from "../core/mod.ts";
 * const dispatcher = new Dispatcher({ version: "0.3.0", maxMessageBytes: 1 << 26, project });
 * const init = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}';
 * const reply = dispatcher.handleLine(new TextEncoder().encode(init));
 * assert.deepEqual(reply.response, {
 *   jsonrpc: "2.0",
 *   id: 1,
 *   result: {
 *     protocolVersion: 1,
 *     serverInfo: { name: "vcc", version: "0.3.0", anchorUnicodeVersion: PYTHON_UNICODE_VERSION },
 *     limits: { maxMessageBytes: 1 << 26 },
 *   },
 * });
 * ```
 */
export class Dispatcher {
  readonly #options: DispatcherOptions;
  #initialized = false;

  constructor(options: DispatcherOptions) {
    this.#options = options;
  }

  /** Handles one complete line (without its newline). Blank lines are ignored. */
  handleLine(bytes: Uint8Array): Reply {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      return reply(failure(null, ErrorCode.ParseError, "Parse error: the line is not valid UTF-8"));
    }
    if (text.trim() === "") return { stop: false };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return reply(failure(null, ErrorCode.ParseError, parseErrorMessage(error)));
    }
    const request = readRequest(value);
    if (isResponse(request)) return reply(request);
    return this.#handleRequest(request);
  }

  /** Answers a line that exceeded `maxMessageBytes` and was dropped unread. */
  handleOversized(length: number, head: Uint8Array): Reply {
    const id = leadingRequestId(new TextDecoder().decode(head));
    const limit = this.#options.maxMessageBytes;
    return reply(failure(id, ErrorCode.MessageTooLarge, `Message too large: ${length} bytes`, {
      length,
      maxMessageBytes: limit,
    }));
  }

  #handleRequest(request: Request): Reply {
    const id = request.id;
    const answer = (response: Response, stop = false): Reply =>
      id === undefined ? { stop } : { response, stop };
    if (request.method === "initialize") {
      return answer(this.#initialize(id ?? null, request.params));
    }
    if (!this.#initialized) {
      const message = `Server not initialized: call initialize before ${request.method}`;
      return answer(failure(id ?? null, ErrorCode.ServerNotInitialized, message));
    }
    switch (request.method) {
      case "project":
        return answer(this.#project(id ?? null, request.params));
      case "anchors":
        return answer(this.#anchors(id ?? null, request.params));
      case "ping":
        return answer(success(id ?? null, {}));
      case "shutdown":
        return answer(success(id ?? null, null), true);
      default:
        return answer(
          failure(id ?? null, ErrorCode.MethodNotFound, `Method not found: ${request.method}`),
        );
    }
  }

  #initialize(id: number | string | null, params: unknown): Response {
    const requested = isObject(params) ? params.protocolVersion : undefined;
    if (requested !== PROTOCOL_VERSION) {
      return failure(id, ErrorCode.InvalidParams, "Unsupported protocol version", {
        supported: [PROTOCOL_VERSION],
        requested: requested ?? null,
      });
    }
    this.#initialized = true;
    return success(id, {
      protocolVersion: PROTOCOL_VERSION,
      serverInfo: {
        name: "vcc",
        version: this.#options.version,
        anchorUnicodeVersion: PYTHON_UNICODE_VERSION,
      },
      limits: { maxMessageBytes: this.#options.maxMessageBytes },
    });
  }

  #project(id: number | string | null, params: unknown): Response {
    if (!isObject(params)) {
      return failure(id, ErrorCode.InvalidParams, "Invalid params: expected an object");
    }
    const withAnchors = params.anchors ?? false;
    if (typeof withAnchors !== "boolean") {
      return failure(id, ErrorCode.InvalidParams, 'Invalid params: "anchors" must be a boolean');
    }
    try {
      const request = readProjectRequest(params);
      const { messages, window, options } = this.#options.resolve?.(request) ??
        { ...request, window: request.messages };
      const { body, stats } = this.#options.project(window, options);
      const refs = messages.map((message, index) =>
        isObject(message) ? refLabel(windowRef(message, index)) : null
      );
      const anchors = withAnchors ? this.#anchorIndexOrNothing(request.messages) : undefined;
      const result = { body, stats, refs };
      return success(id, anchors === undefined ? result : { ...result, anchors });
    } catch (error) {
      if (error instanceof ProjectRequestError) {
        return failure(id, ErrorCode.InvalidParams, `Invalid params: ${error.message}`);
      }
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return failure(id, ErrorCode.InternalError, "Projection failed", { detail: reason });
    }
  }

  #anchors(id: number | string | null, params: unknown): Response {
    const messages = isObject(params) ? params.messages : undefined;
    if (!Array.isArray(messages)) {
      return failure(id, ErrorCode.InvalidParams, 'Invalid params: "messages" must be an array');
    }
    try {
      return success(id, { index: this.#buildAnchorIndex(messages) });
    } catch (error) {
      // The builder throws a TypeError for a row that is not an object, as Hermes's raises.
      if (error instanceof TypeError) {
        return failure(id, ErrorCode.InvalidParams, `Invalid params: ${error.message}`);
      }
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return failure(id, ErrorCode.InternalError, "Anchor index failed", { detail: reason });
    }
  }

  /** The index, or nothing where Hermes's builder raises, so the plugin lets Hermes raise. */
  #anchorIndexOrNothing(turns: unknown): string | undefined {
    try {
      return this.#buildAnchorIndex(turns);
    } catch {
      return undefined;
    }
  }

  #buildAnchorIndex(turns: unknown): string {
    return (this.#options.buildAnchorIndex ?? buildAnchorIndex)(turns);
  }
}

/**
 * Where a line stopped being JSON, without the text around it: the line is the caller's data (a
 * transcript), and the caller may log the message. The position is the parser's, when it names one.
 */
function parseErrorMessage(error: unknown): string {
  const reason = error instanceof Error ? error.message : "";
  if (reason === "Unexpected end of JSON input") return "Parse error: the JSON ends too early";
  const position = / (?:in|after) JSON at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(reason)
    ?.[1];
  return `Parse error: not valid JSON${position === undefined ? "" : ` at position ${position}`}`;
}

function reply(response: Response): Reply {
  return { response, stop: false };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
