/**
 * Finds where JSON text stops being valid, for error messages: V8's own message does not always
 * carry a position. Returns the offset of the first offending character, or `text.length` when the
 * text ends too early.
 */
export function jsonErrorPosition(text: string): number {
  let at = 0;
  const fail = (): never => {
    throw new InvalidAt(at);
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at] as string)) at++;
  };
  const literal = (word: string) => {
    for (const char of word) if (text[at++] !== char) (at--, fail());
  };
  const string = () => {
    at++;
    while (at < text.length && text[at] !== '"') {
      const code = text.charCodeAt(at);
      if (code < 0x20) fail();
      if (text[at] === "\\") {
        at++;
        if (text[at] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail();
          at += 4;
        } else if (!'"\\/bfnrt'.includes(text[at] ?? "")) fail();
      }
      at++;
    }
    if (at >= text.length) fail();
    at++;
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
    if (!match || match[0] === "" || match[0] === "-") fail();
    at += (match as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === "{") {
      at++;
      space();
      if (text[at] === "}") return void at++;
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        string();
        space();
        if (text[at] !== ":") fail();
        at++;
        value();
        space();
        if (text[at] === ",") at++;
        else if (text[at] === "}") return void at++;
        else fail();
      }
    }
    if (char === "[") {
      at++;
      space();
      if (text[at] === "]") return void at++;
      for (;;) {
        value();
        space();
        if (text[at] === ",") at++;
        else if (text[at] === "]") return void at++;
        else fail();
      }
    }
    if (char === '"') return string();
    if (char === "t") return literal("true");
    if (char === "f") return literal("false");
    if (char === "n") return literal("null");
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return number();
    fail();
  };
  try {
    value();
    space();
    if (at < text.length) fail();
    return text.length;
  } catch (error) {
    if (error instanceof InvalidAt) return error.offset;
    throw error;
  }
}

class InvalidAt extends Error {
  constructor(readonly offset: number) {
    super(`invalid JSON at ${offset}`);
  }
}
