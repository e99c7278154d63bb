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
