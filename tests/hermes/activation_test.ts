import assert from "node:assert/strict";
import { activateInConfig, deactivateInConfig } from "../../src/hermes/_activation.ts";

const stock =
  "# mine\ncontext:\n  engine: compressor  # default\nplugins:\n  enabled:\n  - weather\n";
const active =
  "# mine\ncontext:\n  engine: vcc  # default\nplugins:\n  enabled:\n  - weather\n  - vcc\n";

Deno.test("activateInConfig selects and enables vcc", () => {
  assert.equal(activateInConfig(stock), active);
  assert.equal(activateInConfig(active), active);
});

Deno.test("deactivateInConfig undoes activateInConfig exactly", () => {
  assert.equal(deactivateInConfig(active), stock);
  assert.equal(deactivateInConfig(stock), stock);
});

Deno.test("deactivateInConfig leaves another engine selected", () => {
  const other = "context:\n  engine: lcm\nplugins:\n  enabled: [vcc, lcm]\n";
  assert.equal(deactivateInConfig(other), "context:\n  engine: lcm\nplugins:\n  enabled: [lcm]\n");
});
