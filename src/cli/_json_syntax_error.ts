/** Where JSON text stops being valid, and what was expected there, in words. */
export interface JsonSyntaxError {
  /** Offset of the first offending character, or the text's length when it ends too early. */
  readonly offset: number;
  /** What was expected and what was found instead: `expected , or ] but found '}'`. */
  readonly problem: string;
}

const WHITESPACE = " \t\n\r";
const ESCAPES = '"\\/bfnrt';

/**
 * Finds the first place `text` departs from JSON (RFC 8259), for error messages in vcc's own words
 * rather than the engine's, which do not always carry a position. Returns undefined for valid
 * JSON. Scans without recursion, so any nesting depth is safe.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(jsonSyntaxError('[1, 2}'), { offset: 5, problem: "expected , or ] but found '}'" });
 * assert.equal(jsonSyntaxError('{"a": [1]}'), undefined);
 * ```
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let at = 0;
  const open: Array<"}" | "]"> = [];
  const found = () => {
    const code = text.codePointAt(at);
    if (code === undefined) return "the end of the input";
    const char = String.fromCodePoint(code);
    return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char)
      ? `'${char}'`
      : `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  };
  const expected = (what: string): JsonSyntaxError => ({
    offset: at,
    problem: `expected ${what} but found ${found()}`,
  });
  const space = () => {
    while (at < text.length && WHITESPACE.includes(text[at] as string)) at++;
  };
  const digits = () => {
    const start = at;
    while (at < text.length && text[at]! >= "0" && text[at]! <= "9") at++;
    return at > start;
  };
  const string = (): JsonSyntaxError | undefined => {
    at++;
    for (;;) {
      const char = text[at];
      if (char === undefined) return expected('" to close the string');
      if (char === '"') return void at++;
      if (char < " ") {
        return {
          offset: at,
          problem: `found ${found()} inside a string, where it must be escaped`,
        };
      }
      if (char === "\\") {
        at++;
        if (text[at] === "u") {
          for (let digit = 0; digit < 4; digit++) {
            at++;
            if (!/[0-9a-fA-F]/.test(text[at] ?? "")) return expected("four hex digits after \\u");
          }
        } else if (!ESCAPES.includes(text[at] ?? "x")) {
          return expected('an escape (one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
        }
      }
      at++;
    }
  };
  const number = (): JsonSyntaxError | undefined => {
    if (text[at] === "-") at++;
    if (text[at] === "0") at++;
    else if (!digits()) return expected("a digit");
    if (text[at] === ".") {
      at++;
      if (!digits()) return expected("a digit after the decimal point");
    }
    if (text[at] === "e" || text[at] === "E") {
      at++;
      if (text[at] === "+" || text[at] === "-") at++;
      if (!digits()) return expected("a digit in the exponent");
    }
  };
  const scalar = (): JsonSyntaxError | undefined => {
    const char = text[at];
    if (char === '"') return string();
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return number();
    const word = ["true", "false", "null"].find((literal) => literal[0] === char);
    if (word === undefined) return expected("a value");
    for (const letter of word) {
      if (text[at] !== letter) return expected(word);
      at++;
    }
  };

  // What the scanner expects next: a value, an object's key, or what may follow a value.
  let state: "value" | "first item" | "key" | "first key" | "after value" = "value";
  for (;;) {
    space();
    if (state === "value" || state === "first item") {
      if (state === "first item" && text[at] === "]") {
        at++;
        open.pop();
        state = "after value";
      } else if (text[at] === "{" || text[at] === "[") {
        open.push(text[at] === "{" ? "}" : "]");
        state = text[at] === "{" ? "first key" : "first item";
        at++;
      } else {
        const problem = scalar();
        if (problem) return problem;
        state = "after value";
      }
    } else if (state === "key" || state === "first key") {
      if (state === "first key" && text[at] === "}") {
        at++;
        open.pop();
        state = "after value";
        continue;
      }
      if (text[at] !== '"') {
        return expected(`a "quoted" name${state === "first key" ? " or }" : ""}`);
      }
      const problem = string();
      if (problem) return problem;
      space();
      if (text[at] !== ":") return expected(":");
      at++;
      state = "value";
    } else {
      const close = open.at(-1);
      if (close === undefined) {
        return at < text.length ? expected("the end of the input") : undefined;
      }
      if (text[at] === ",") {
        at++;
        state = close === "}" ? "key" : "value";
      } else if (text[at] === close) {
        at++;
        open.pop();
      } else return expected(`, or ${close}`);
    }
  }
}
