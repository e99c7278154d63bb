/** A JSON-RPC 2.0 request id; `null` only in error responses whose request id is unknown. */
export type RequestId = number | string | null;

/** The JSON-RPC 2.0 error codes the bridge answers with. */
export const ErrorCode = {
  /** The line is not valid UTF-8 JSON. */
  ParseError: -32700,
  /** The JSON is not a JSON-RPC 2.0 request object. */
  InvalidRequest: -32600,
  /** No such method. */
  MethodNotFound: -32601,
  /** The method exists but its params are wrong. */
  InvalidParams: -32602,
  /** The server failed while handling a valid request. */
  InternalError: -32603,
  /** The line is longer than the server's `maxMessageBytes`. */
  MessageTooLarge: -32001,
  /** A request other than `initialize` arrived before `initialize`. */
  ServerNotInitialized: -32002,
} as const;

/** The `error` member of a JSON-RPC error response. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A JSON-RPC 2.0 response: exactly one of `result` and `error`. */
export type Response =
  | { readonly jsonrpc: "2.0"; readonly id: RequestId; readonly result: unknown }
  | { readonly jsonrpc: "2.0"; readonly id: RequestId; readonly error: RpcError };

/** A well-formed JSON-RPC 2.0 request; a notification has no `id`. */
export interface Request {
  readonly id?: number | string;
  readonly method: string;
  readonly params?: unknown;
}

/** A successful response to request `id`. */
export function success(id: RequestId, result: unknown): Response {
  return { jsonrpc: "2.0", id, result };
}

/** An error response to request `id`; `data` is omitted when undefined. */
export function failure(id: RequestId, code: number, message: string, data?: unknown): Response {
  const error: RpcError = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: "2.0", id, error };
}

/**
 * Checks that a parsed JSON value is a JSON-RPC 2.0 request. Returns the request, or the error
 * response to send (with the request's id when it has a usable one).
 */
export function readRequest(value: unknown): Request | Response {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const what = Array.isArray(value) ? "batch requests are not supported" : "not an object";
    return failure(null, ErrorCode.InvalidRequest, `Invalid request: ${what}`);
  }
  const message = value as Record<string, unknown>;
  const hasId = "id" in message;
  const id = message.id;
  if (hasId && !isRequestId(id)) {
    return failure(
      null,
      ErrorCode.InvalidRequest,
      "Invalid request: id must be a number or string",
    );
  }
  const replyId = hasId ? id as number | string : null;
  if (message.jsonrpc !== "2.0") {
    return failure(replyId, ErrorCode.InvalidRequest, 'Invalid request: jsonrpc must be "2.0"');
  }
  if (typeof message.method !== "string") {
    return failure(replyId, ErrorCode.InvalidRequest, "Invalid request: method must be a string");
  }
  return {
    method: message.method,
    ...(hasId ? { id: id as number | string } : {}),
    ...("params" in message ? { params: message.params } : {}),
  };
}

/** Whether {@linkcode readRequest} returned an error response rather than a request. */
export function isResponse(value: Request | Response): value is Response {
  return "jsonrpc" in value;
}

/**
 * The id of a request whose text was cut off, when its opening bytes name one, as compact JSON
 * encoders write it (`{"jsonrpc":"2.0","id":7,...` or `{"id":7,...`); otherwise `null`.
 */
export function leadingRequestId(head: string): RequestId {
  const match =
    /^\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,200}")\s*,/
      .exec(head);
  if (!match) return null;
  return JSON.parse(match[1]!) as number | string;
}

function isRequestId(value: unknown): value is number | string {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}
