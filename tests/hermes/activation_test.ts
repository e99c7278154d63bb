import assert from "node:assert/strict";
import {
  activateInConfig,
  type ActivationRecord,
  deactivateInConfig,
} from "../../src/hermes/_activation.ts";
import { YamlEditError } from "../../src/hermes/config_errors.ts";

/** [case, config.yaml before, after activation] */
const activations: [string, string, string][] = [
  [
    "replaces the engine, keeping its comment, and appends to a block list",
    "# mine\ncontext:\n  engine: compressor  # default\nplugins:\n  enabled:\n  - weather\n",
    "# mine\ncontext:\n  engine: vcc  # default\nplugins:\n  enabled:\n  - weather\n  - vcc\n",
  ],
  [
    "adds missing blocks after the last key",
    "model: x\n# end\n",
    "model: x\ncontext:\n  engine: vcc\nplugins:\n  enabled: [vcc]\n# end\n",
  ],
  [
    "adds missing blocks before a document end marker",
    "model: x\n...\n",
    "model: x\ncontext:\n  engine: vcc\nplugins:\n  enabled: [vcc]\n...\n",
  ],
  [
    "ends new lines like the line they follow",
    "a: 1\r\nplugins:\r\n  enabled:\r\n  - weather\n",
    "a: 1\r\nplugins:\r\n  enabled:\r\n  - weather\n  - vcc\ncontext:\n  engine: vcc\n",
  ],
  [
    "adds a missing key first in its block, at the block's indentation",
    "context:\n    # trimming\n    max: 1\n",
    "context:\n    engine: vcc\n    # trimming\n    max: 1\nplugins:\n    enabled: [vcc]\n",
  ],
  [
    "writes into flow mappings and lists in flow style",
    "context: {max: 1}\nplugins: {enabled: [a, b]}\n",
    "context: {max: 1, engine: vcc}\nplugins: {enabled: [a, b, vcc]}\n",
  ],
  [
    "turns a null token into a flow mapping",
    "context: ~  # later\nplugins:\n  enabled: null\n",
    "context: {engine: vcc}  # later\nplugins:\n  enabled: [vcc]\n",
  ],
  [
    "keeps a file without a final line end so",
    "model: x",
    "model: x\ncontext:\n  engine: vcc\nplugins:\n  enabled: [vcc]",
  ],
];

for (const [name, before, after] of activations) {
  Deno.test(`activateInConfig ${name}`, () => {
    const activation = activateInConfig(before);
    assert.equal(activation.text, after);
    assert.equal(activateInConfig(after).text, after, "activating again changes nothing");
    assert.equal(deactivateInConfig(after, activation.record), before);
  });
}

Deno.test("activateInConfig refuses a plugin list that keeps vcc disabled", () => {
  assert.throws(
    () => activateInConfig("plugins:\n  disabled: [vcc]\n"),
    YamlEditError,
  );
});

const addedBoth: ActivationRecord = {
  engine: { kind: "absent", parent: { kind: "absent" } },
  enabled: { kind: "absent", parent: { kind: "absent" } },
};

/** [case, config.yaml now, what activation did, after deactivation] */
const deactivations: [string, string, ActivationRecord | undefined, string][] = [
  [
    "keeps a key added since to a block it added",
    "model: x\ncontext:\n  engine: vcc\n  max: 1\nplugins:\n  enabled: [vcc]\n",
    addedBoth,
    "model: x\ncontext:\n  max: 1\n",
  ],
  [
    "leaves an engine chosen since, and plugins enabled since",
    "context:\n  engine: lcm\nplugins:\n  enabled: [vcc, lcm]\n",
    addedBoth,
    "context:\n  engine: lcm\nplugins:\n  enabled: [lcm]\n",
  ],
  [
    "puts back the value it replaced, as it was written",
    "context:\n  engine: vcc # mine\nplugins:\n  enabled: [a, vcc]\n",
    { engine: { kind: "value", source: "'compressor'" }, enabled: { kind: "list" } },
    "context:\n  engine: 'compressor' # mine\nplugins:\n  enabled: [a]\n",
  ],
  [
    "takes out every vcc it finds in the list",
    "plugins:\n  enabled:\n  - vcc\n  - a\n  - vcc\n",
    { enabled: { kind: "list" } },
    "plugins:\n  enabled:\n  - a\n",
  ],
  [
    "changes nothing activation did not change",
    "context:\n  engine: vcc\nplugins:\n  enabled: [vcc]\n",
    {},
    "context:\n  engine: vcc\nplugins:\n  enabled: [vcc]\n",
  ],
  [
    "without a record, selects the stock engine and takes vcc out of the list",
    "context:\n  engine: vcc\nplugins:\n  enabled:  # mine\n  - vcc\n",
    undefined,
    "context:\n  engine: compressor\nplugins:\n  enabled: []  # mine\n",
  ],
];

for (const [name, now, record, after] of deactivations) {
  Deno.test(`deactivateInConfig ${name}`, () => {
    assert.equal(deactivateInConfig(now, record), after);
  });
}
