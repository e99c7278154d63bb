import assert from "node:assert/strict";
import { ConfigUnreadable } from "../../src/hermes/config_errors.ts";
import { configData, parseConfig, readYamlScalar } from "../../src/hermes/config_yaml.ts";

/** [case, config.yaml text, what the refusal says] */
const unreadable: [string, string, string][] = [
  ["a key written twice", "model: x\nmodel: y\n", "the key model is written twice (line 2)"],
  ["a second document", "a: 1\n---\nb: 2\n", "a second YAML document starts on line 2"],
  ["a tab indenting a key", "model:\n\tdefault: x\n", "(line 2)"],
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
