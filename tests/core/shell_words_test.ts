/** Reading just enough of a command line to name its program and its piece of work. */
import assert from "node:assert/strict";
import { commandFamily, shellSegments } from "../../src/core/shell_words.ts";

Deno.test("shellSegments() splits at unquoted operators only", () => {
  assert.deepEqual(shellSegments(`echo "a | b" && printf 'x;y' | wc -l; ls`), [
    { words: ["echo", "a | b"], then: "&&" },
    { words: ["printf", "x;y"], then: "|" },
    { words: ["wc", "-l"], then: ";" },
    { words: ["ls"], then: "" },
  ]);
  assert.deepEqual(shellSegments("make 2>&1 >/dev/null"), [
    { words: ["make", "2>&1", ">/dev/null"], then: "" },
  ]);
});

Deno.test("shellSegments() reads nothing it cannot read with certainty", () => {
  for (
    const line of ["echo $(date)", "echo `date`", "echo 'open", 'echo "open', "x".repeat(70_000)]
  ) {
    assert.equal(shellSegments(line), undefined, line.slice(0, 20));
  }
});

// [command line, family]
const FAMILIES: ReadonlyArray<readonly [string, string | undefined]> = [
  ["pytest -q", "pytest"],
  ["cd /repo && python -m pytest tests/test_a.py -x 2>&1 | tail -20", "python pytest"],
  ["./scripts/deploy.sh staging", "deploy.sh staging"],
  ["./scripts/deploy.sh staging --resume", "deploy.sh staging"],
  ["python3 report.py --quarter=q3 --region=south", "python3 report.py --region=south"],
  ["pytest --tb=short -q tests --shard=4", "pytest tests --shard=4"],
  ["python3 report.py --region=south --timeout=120 --run=2", "python3 report.py --region=south"],
  ["git -c commit.gpgsign=false commit -am 'x'", "git commit"],
  ["DATABASE_URL=sqlite:// alembic upgrade head", "alembic upgrade"],
  ["cat > fix.py << 'EOF'\nprint(1)\nEOF", "cat fix.py"],
  ["python reproduce.py", "python reproduce.py"],
  ["/usr/bin/env python3 -m pytest -q", "python3 pytest"],
  ["cd /repo; sudo -u dev make -C docs", "make docs"],
  ["echo $(date)", undefined],
];

Deno.test("commandFamily() names the work retries of a command share", async (t) => {
  for (const [line, family] of FAMILIES) {
    await t.step(line.split("\n")[0] as string, () => assert.equal(commandFamily(line), family));
  }
});
