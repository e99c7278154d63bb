/** Every command answers --help with its usage and an example, and completions exist per shell. */
import assert from "node:assert/strict";
import { main, type Output } from "../../src/cli/mod.ts";

const COMMANDS = [
  "project",
  "demo",
  "sessions",
  "stats",
  "show",
  "preview",
  "bench",
  "bench proofs",
  "bench speed",
  "bench headtohead",
  "bench headtohead freeze",
  "bench headtohead stock",
  "bench headtohead variant",
  "bench headtohead ask",
  "bench headtohead report",
  "bench golden",
  "hermes",
  "hermes install",
  "hermes uninstall",
  "hermes doctor",
  "serve",
];

async function capture(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out: Output = {
    stdout: (text) => void (stdout += text),
    stderr: (line) => void (stderr += `${line}\n`),
  };
  return { code: await main(args, out), stdout, stderr };
}

Deno.test("vcc COMMAND --help shows the usage and an example", async (t) => {
  for (const name of COMMANDS) {
    await t.step(name, async () => {
      const { code, stdout } = await capture([...name.split(" "), "--help"]);
      assert.equal(code, 0);
      assert.match(stdout, new RegExp(`Usage: vcc ${name}`));
      assert.match(stdout, new RegExp(`Example: vcc ${name.split(" ")[0]}`));
    });
  }
});

Deno.test("vcc --help and the completions list every command, serve included", async () => {
  const help = await capture(["--help"]);
  const completed = await capture(["completion", "bash", ""]);
  for (const name of COMMANDS.filter((name) => !name.includes(" "))) {
    assert.match(help.stdout, new RegExp(`^ *(Usage: )?vcc ${name}\\b`, "m"), name);
    assert.match(completed.stdout, new RegExp(`^${name}$`, "m"), name);
  }
});

Deno.test("vcc completion prints a script for bash, zsh and fish", async () => {
  for (const shell of ["bash", "zsh", "fish"]) {
    const { code, stdout } = await capture(["completion", shell]);
    assert.equal(code, 0, shell);
    assert.ok(stdout.includes("vcc"), shell);
    assert.ok(stdout.length > 200, shell);
  }
});

Deno.test("a command line that does not parse gets one error line and the help to read", async (t) => {
  const cases: ReadonlyArray<readonly [string, RegExp, string]> = [
    ["show x", /--around/, "vcc show --help"],
    ["preview", /SESSION/, "vcc preview --help"],
    ["project --format yaml", /yaml/, "vcc project --help"],
    ["bench golden --bogus", /--bogus/, "vcc bench golden --help"],
    ["bench proofs --db", /--db/, "vcc bench proofs --help"],
    ["hermes install --x", /--x/, "vcc hermes install --help"],
    ["golden --check", /golden/, "vcc --help"],
    ["nosuch", /nosuch/, "vcc --help"],
  ];
  for (const [args, problem, help] of cases) {
    await t.step(args, async () => {
      const { code, stdout, stderr } = await capture(args.split(" "));
      assert.equal(code, 2);
      assert.equal(stdout, "");
      const lines = stderr.trimEnd().split("\n");
      assert.equal(lines.length, 2, stderr);
      assert.match(lines[0]!, /^vcc: /);
      assert.match(lines[0]!, problem);
      assert.equal(lines[1], `see ${help}`);
    });
  }
});

Deno.test("hermes install --help names both keys --activate changes in config.yaml", async () => {
  const { stdout } = await capture(["hermes", "install", "--help"]);
  const activate = stdout.split("\n").find((line) => line.trimStart().startsWith("--activate"));
  assert.match(activate ?? "", /context\.engine/);
  assert.match(activate ?? "", /plugins\.enabled/);
});

Deno.test("vcc alone lists every command's usage and exits 2", async () => {
  const { code, stdout, stderr } = await capture([]);
  assert.equal(code, 2);
  assert.equal(stdout, "");
  for (const name of COMMANDS.filter((name) => !name.includes(" "))) {
    assert.match(stderr, new RegExp(`^ *(Usage: )?vcc ${name}\\b`, "m"), name);
  }
  assert.match(stderr, /\nsee vcc --help\n$/);
});
