/** `vcc bench golden --check` where the golden files are not: outside the source checkout. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

Deno.test("the golden check outside the checkout says to run it from the checkout", async () => {
  for (const args of [["bench", "--check-golden"], ["bench", "golden", "--check"]]) {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--allow-read", "--allow-env", MAIN, ...args],
      cwd: Deno.makeTempDirSync(),
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(code, 2, args.join(" "));
    assert.equal(new TextDecoder().decode(stdout), "");
    assert.equal(
      new TextDecoder().decode(stderr),
      "vcc: no bench/golden here: the golden files live in vcc's source checkout; " +
        "run the check there\n",
    );
  }
});

/** Runs vcc with `args`; its exit code and its standard streams. */
async function vcc(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-read", "--allow-write", "--allow-env", MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}

Deno.test("a golden directory that is a file, or broken, is named in one line, never a trace", async () => {
  const root = Deno.makeTempDirSync();
  const file = `${root}/window.json`;
  Deno.writeTextFileSync(file, "{}");
  const golden = `${root}/golden`;
  const copy = (from: string, to: string) => {
    Deno.mkdirSync(to);
    for (const entry of Deno.readDirSync(from)) {
      Deno.copyFileSync(`${from}/${entry.name}`, `${to}/${entry.name}`);
    }
  };
  copy(fileURLToPath(new URL("../../bench/golden", import.meta.url)), golden);
  const manifest = JSON.parse(Deno.readTextFileSync(`${golden}/manifest.json`));
  const output = `${golden}/${manifest.windows[1].output}`;
  Deno.removeSync(output);
  const cases: [string[], number, string][] = [
    [["--check", "--golden-dir", file], 2, `${file} is not a directory`],
    [["--write", "--golden-dir", file], 2, `${file} is not a directory`],
    [["--check", "--golden-dir", golden], 1, `${output} is listed in the manifest but missing`],
  ];
  for (const [args, code, message] of cases) {
    const run = await vcc(["bench", "golden", ...args]);
    assert.deepEqual([run.code, run.stderr], [code, `vcc: ${message}\n`], args.join(" "));
  }
  const broken: [string, string][] = [
    ["{bad", "is not valid JSON"],
    ['{"format":1}', "is not a golden manifest"],
  ];
  for (const [text, problem] of broken) {
    Deno.writeTextFileSync(`${golden}/manifest.json`, text);
    const run = await vcc(["bench", "golden", "--check", "--golden-dir", golden]);
    assert.deepEqual([run.code, run.stderr], [1, `vcc: ${golden}/manifest.json ${problem}\n`]);
  }
  // Nothing was written where a file stood.
  assert.equal(Deno.readTextFileSync(file), "{}");
});
