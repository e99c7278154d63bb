import assert from "node:assert/strict";
import {
  addToYamlList,
  readYamlList,
  readYamlScalar,
  removeFromYamlList,
  setYamlScalar,
  YamlEditError,
} from "../../src/hermes/config_yaml.ts";

const ENGINE = ["context", "engine"];
const ENABLED = ["plugins", "enabled"];

/** [case, config.yaml before, after setting context.engine to vcc] */
const setEngine: [string, string, string][] = [
  [
    "replaces the value and keeps its comment",
    "context:\n  engine: compressor  # built-in\n",
    "context:\n  engine: vcc  # built-in\n",
  ],
  [
    "keeps every other key, comment and blank line",
    "# mine\nmodel:\n  default: qwen # local\n\ncontext:\n  engine: compressor\n  memory_trim:\n    enabled: true\n# end\n",
    "# mine\nmodel:\n  default: qwen # local\n\ncontext:\n  engine: vcc\n  memory_trim:\n    enabled: true\n# end\n",
  ],
  [
    "replaces a quoted value",
    "context:\n  engine: 'compressor'\n",
    "context:\n  engine: vcc\n",
  ],
  [
    "adds the key to an existing block, at its indentation",
    "context:\n    other: 1\n",
    "context:\n    engine: vcc\n    other: 1\n",
  ],
  [
    "fills an empty or null block",
    "context: ~  # nothing yet\nmodel: x\n",
    "context:  # nothing yet\n  engine: vcc\nmodel: x\n",
  ],
  [
    "fills an empty flow mapping",
    "context: {}\n",
    "context:\n  engine: vcc\n",
  ],
  ["adds the whole path at the end", "model: x\n", "model: x\ncontext:\n  engine: vcc\n"],
  ["adds a newline the file lacked", "model: x", "model: x\ncontext:\n  engine: vcc\n"],
  ["writes into an empty file", "", "context:\n  engine: vcc\n"],
  [
    "finds the key only at its own level",
    "notes: |\n  context:\n    engine: no\nother:\n  context:\n    engine: no\ncontext:\n  engine: compressor\n",
    "notes: |\n  context:\n    engine: no\nother:\n  context:\n    engine: no\ncontext:\n  engine: vcc\n",
  ],
  [
    "keeps Windows line ends",
    "context:\r\n  engine: compressor\r\nmodel: x\r\n",
    "context:\r\n  engine: vcc\r\nmodel: x\r\n",
  ],
];

for (const [name, before, after] of setEngine) {
  Deno.test(`setYamlScalar ${name}`, () => {
    assert.equal(setYamlScalar(before, ENGINE, "vcc"), after);
    assert.equal(readYamlScalar(after, ENGINE), "vcc");
  });
}

Deno.test("setYamlScalar quotes a value YAML would read as something else", () => {
  assert.equal(setYamlScalar("", ["a"], "yes"), 'a: "yes"\n');
  assert.equal(setYamlScalar("", ["a"], "1.5"), 'a: "1.5"\n');
  assert.equal(setYamlScalar("", ["a"], "has space"), 'a: "has space"\n');
  assert.equal(readYamlScalar('a: "yes"\n', ["a"]), "yes");
});

Deno.test("setYamlScalar refuses shapes it cannot edit safely", () => {
  assert.throws(() => setYamlScalar("context: {engine: x}\n", ENGINE, "vcc"), YamlEditError);
  assert.throws(
    () => setYamlScalar("context:\n  engine:\n    a: 1\n", ENGINE, "vcc"),
    YamlEditError,
  );
  assert.throws(
    () => setYamlScalar("context:\n  engine: |\n    x\n", ENGINE, "vcc"),
    YamlEditError,
  );
});

Deno.test("readYamlScalar reads missing, null and non-scalar values as undefined", () => {
  assert.equal(readYamlScalar("model: x\n", ENGINE), undefined);
  assert.equal(readYamlScalar("context:\n  engine: ~\n", ENGINE), undefined);
  assert.equal(readYamlScalar("context:\n  engine: [a]\n", ENGINE), undefined);
  assert.equal(readYamlScalar('context:\n  "engine": "v#c"  # c\n', ENGINE), "v#c");
});

/** [case, before, after adding vcc to plugins.enabled] */
const addPlugin: [string, string, string][] = [
  [
    "appends to an indentless block list (PyYAML's style)",
    "plugins:\n  enabled:\n  - weather\n  disabled: []\n",
    "plugins:\n  enabled:\n  - weather\n  - vcc\n  disabled: []\n",
  ],
  [
    "appends to an indented block list",
    "plugins:\n  enabled:\n    - weather  # tool\n",
    "plugins:\n  enabled:\n    - weather  # tool\n    - vcc\n",
  ],
  [
    "appends to a one-line list, keeping how items were written",
    "plugins:\n  enabled: ['weather', x]  # mine\n",
    "plugins:\n  enabled: ['weather', x, vcc]  # mine\n",
  ],
  ["fills an empty list", "plugins:\n  enabled: []\n", "plugins:\n  enabled: [vcc]\n"],
  ["fills a null list", "plugins:\n  enabled:\n", "plugins:\n  enabled: [vcc]\n"],
  [
    "creates the list",
    "plugins:\n  disabled: []\n",
    "plugins:\n  enabled: [vcc]\n  disabled: []\n",
  ],
  [
    "leaves a list that has it",
    "plugins:\n  enabled:\n  - vcc\n",
    "plugins:\n  enabled:\n  - vcc\n",
  ],
];

for (const [name, before, after] of addPlugin) {
  Deno.test(`addToYamlList ${name}`, () => {
    assert.equal(addToYamlList(before, ENABLED, "vcc"), after);
    assert.ok(readYamlList(after, ENABLED)?.includes("vcc"));
  });
}

Deno.test("addToYamlList refuses a list of mappings", () => {
  assert.throws(
    () => addToYamlList("plugins:\n  enabled:\n  - name: x\n", ENABLED, "vcc"),
    YamlEditError,
  );
});

/** [case, before, after removing vcc from plugins.enabled] */
const removePlugin: [string, string, string][] = [
  [
    "drops the item line",
    "plugins:\n  enabled:\n  - weather\n  - vcc\n  disabled: []\n",
    "plugins:\n  enabled:\n  - weather\n  disabled: []\n",
  ],
  [
    "leaves an empty one-line list when it was the only item",
    "plugins:\n  enabled:  # mine\n  - vcc\nmodel: x\n",
    "plugins:\n  enabled: []  # mine\nmodel: x\n",
  ],
  ["edits a one-line list", "plugins:\n  enabled: [a, vcc, b]\n", "plugins:\n  enabled: [a, b]\n"],
  ["leaves a list without it", "plugins:\n  enabled: [a]\n", "plugins:\n  enabled: [a]\n"],
  ["leaves a file without the list", "model: x\n", "model: x\n"],
];

for (const [name, before, after] of removePlugin) {
  Deno.test(`removeFromYamlList ${name}`, () => {
    assert.equal(removeFromYamlList(before, ENABLED, "vcc"), after);
  });
}
