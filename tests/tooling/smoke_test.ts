/**
 * The release smoke check passes a vcc that behaves like this checkout and stops at each of the
 * ways a broken build shows itself: a wrong version, a different demo, a server that fails on exit.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { smokeTest } from "../../src/tooling/smoke.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** A vcc that runs this checkout's `main.ts` but breaks one thing, chosen by `fault`. */
const FAKE_VCC = `
const [fault, ...args] = Deno.args;
if (fault === "version" && args[0] === "--version") {
  console.log("0.0.0-broken");
  Deno.exit(0);
}
const real = await new Deno.Command(Deno.execPath(), {
  args: ["run", "--quiet", ${JSON.stringify(MAIN)}, ...args],
  stdin: "inherit",
  stderr: "inherit",
}).output();
let text = new TextDecoder().decode(real.stdout);
if (fault === "demo" && args[0] === "demo") text = text.replace("## Goal", "## Goals");
Deno.stdout.writeSync(new TextEncoder().encode(text));
Deno.exit(fault === "serve" && args[0] === "serve" ? 1 : real.code);
`;

async function smokeLines(vcc: readonly string[]): Promise<{ passed: boolean; lines: string[] }> {
  const lines: string[] = [];
  const passed = await smokeTest(vcc, (line) => lines.push(line));
  return { passed, lines };
}

Deno.test("the smoke check passes this checkout run from source", async () => {
  const { passed, lines } = await smokeLines([Deno.execPath(), "run", "--quiet", MAIN]);
  assert.deepEqual(lines, [
    "smoke: ok --version",
    "smoke: ok demo",
    "smoke: ok serve round trip",
  ]);
  assert.ok(passed);
});

Deno.test("the smoke check stops at a broken build and says which check failed", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "vcc-smoke-" });
  try {
    const fake = join(dir, "fake_vcc.ts");
    await Deno.writeTextFile(fake, FAKE_VCC);
    const cases: [string, string][] = [
      ["version", "smoke: FAILED --version: it prints 0.0.0-broken, this checkout is "],
      ["demo", "smoke: FAILED demo: its output differs from the source's at line "],
      ["serve", "smoke: FAILED serve round trip: it exited with 1"],
    ];
    for (const [fault, failure] of cases) {
      await t.step(`${fault} fault`, async () => {
        const { passed, lines } = await smokeLines([Deno.execPath(), "run", "-A", fake, fault]);
        assert.equal(passed, false);
        const last = lines.at(-1) ?? "";
        assert.ok(last.startsWith(failure), `last line: ${last}`);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
