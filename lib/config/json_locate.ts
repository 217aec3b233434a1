/**
 * Finds where JSON text stops being valid: V8's `JSON.parse` messages do not always carry a
 * position (e.g. "Unexpected token '}'"), and a user editing a config file needs line and column.
 *
 * @module
 */

const WS = new Set([" ", "\t", "\n", "\r"]);
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// JSON strings may not hold raw control characters, so the class excludes them on purpose.
// deno-lint-ignore no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

class Stop {
  constructor(readonly offset: number) {}
}

/** Returns the offset of the first character where `text` is not valid JSON, or -1. */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const match = (re: RegExp) => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw new Stop(i);
    i += m[0].length;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else throw new Stop(i);
  };
  const value = (): void => {
    skip();
    const c = text[i];
    if (c === "{") return container("}", true);
    if (c === "[") return container("]", false);
    if (c === '"') return match(STRING);
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    return match(NUMBER);
  };
  const container = (close: string, keyed: boolean) => {
    i++;
    skip();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      if (keyed) {
        skip();
        if (text[i] !== '"') throw new Stop(i);
        match(STRING);
        skip();
        if (text[i] !== ":") throw new Stop(i);
        i++;
      }
      value();
      skip();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) {
        i++;
        return;
      }
      throw new Stop(i);
    }
  };
  try {
    value();
    skip();
    return i === text.length ? -1 : i;
  } catch (err) {
    if (err instanceof Stop) return err.offset;
    throw err;
  }
}
