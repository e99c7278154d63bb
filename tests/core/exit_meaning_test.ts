/** Which non-zero exits are answers, and which command outputs report an error despite exit 0. */
import assert from "node:assert/strict";
import { readOutcome } from "../../src/core/outcome.ts";
import { describeState } from "../../src/core/outcome_words.ts";

const result = (output: string, exit_code: number) => JSON.stringify({ output, exit_code });

// What `gh pr checks` prints to a pipe and to a terminal while a check is pending, and when one
// failed.
const GH_PENDING = "lint\tpass\t32s\thttps://github.com/acme/api/actions/runs/1/job/2\n" +
  "e2e\tpending\t0\thttps://github.com/acme/api/actions/runs/1/job/3";
const GH_PENDING_TTY = "Some checks are still pending\n0 failing, 1 successful, 0 skipped, and 1 " +
  "pending checks\n\n   NAME  DESCRIPTION  ELAPSED  URL\n✓  lint               32s      " +
  "https://github.com/acme/api/actions/runs/1/job/2\n*  e2e                         " +
  "https://github.com/acme/api/actions/runs/1/job/3";
const GH_FAILING = "lint\tpass\t32s\thttps://github.com/acme/api/actions/runs/1/job/2\n" +
  "e2e\tfail\t4m2s\thttps://github.com/acme/api/actions/runs/1/job/3";

// [command line, output, exit code, how the projection states it]
const CASES: ReadonlyArray<readonly [string, string, number, string]> = [
  ["grep -rn 'def parse' src", "", 1, "no match (exit 1)"],
  ["cd /repo && grep -n TODO app.py", "", 1, "no match (exit 1)"],
  ["rg needle", "", 1, "no match (exit 1)"],
  ["/usr/bin/grep -n needle a.py", "", 1, "no match (exit 1)"],
  ["LC_ALL=C grep -rn NOSUCHTOKEN .", "", 1, "no match (exit 1)"],
  ["sudo -u dev grep -q x /etc/hosts", "", 1, "no match (exit 1)"],
  ["cd /repo; env LANG=C diff a b", "1c1", 1, "differences found (exit 1)"],
  ["git grep -n needle", "", 1, "no match (exit 1)"],
  ["grep -rn needle src | head -5", "", 1, "failed (exit 1)"],
  ["grep -rn needle src | grep -v tests", "", 1, "no match (exit 1)"],
  ["cd /repo && cat app.log | grep -c ERROR", "0", 1, "no match (exit 1)"],
  ["kubectl logs deploy/api | grep -cE 'ERROR|FATAL'", "0", 1, "no match (exit 1)"],
  ["git log --oneline | grep -i 'revert'", "", 1, "no match (exit 1)"],
  ["set -o pipefail; grep -rn x src | grep y", "", 1, "failed (exit 1)"],
  ["grep -rn x src | grep y; echo done", "", 1, "failed (exit 1)"],
  ["grep -rn x src | grep y", "grep: src: No such file or directory", 1, "failed (exit 1)"],
  ["grep -c needle file.txt", "0", 1, "no match (exit 1)"],
  ["grep -rc needle src", "src/a.py:0\nsrc/b.py:0", 1, "no match (exit 1)"],
  ["grep --count needle a.log b.log", "a.log:0\nb.log:0", 1, "no match (exit 1)"],
  // Counts that are not all 0 beside status 1 are no answer the record proves.
  ["grep -c needle a.log b.log", "a.log:0\nb.log:2", 1, "failed (exit 1)"],
  // `-C` shows context, it counts nothing: a `0` it printed is a line of the file.
  ["grep -C 2 needle counts.txt", "0", 1, "failed (exit 1)"],
  ["grep needle missing.txt", "grep: missing.txt: No such file or directory", 2, "failed (exit 2)"],
  [
    "cd /nowhere && grep x y",
    "bash: cd: /nowhere: No such file or directory",
    1,
    "failed (exit 1)",
  ],
  [
    "diff -u a.txt b.txt",
    "--- a.txt\n+++ b.txt\n@@ -1 +1 @@\n-a\n+b",
    1,
    "differences found (exit 1)",
  ],
  ["cmp a.bin b.bin", "a.bin b.bin differ: byte 3, line 1", 1, "differences found (exit 1)"],
  ["git diff --exit-code", "diff --git a/x b/x", 1, "differences found (exit 1)"],
  ["git diff", "", 1, "failed (exit 1)"],
  // A plan asked for a detailed exit code exits 2 when it holds changes, 1 on an error.
  [
    "terraform plan -detailed-exitcode -out=tfplan",
    "Plan: 1 to add, 0 to change, 0 to destroy.",
    2,
    "differences found (exit 2)",
  ],
  [
    "cd infra && terraform -chdir=envs/prod plan -detailed-exitcode -lock=false",
    "  # aws_instance.api will be updated in-place",
    2,
    "differences found (exit 2)",
  ],
  ["tofu plan --detailed-exitcode", "Plan: 0 to add, 2 to change", 2, "differences found (exit 2)"],
  [
    "helm diff upgrade api ./chart --detailed-exitcode",
    "default, api, Deployment",
    2,
    "differences found (exit 2)",
  ],
  ["terraform plan -detailed-exitcode", "Error: Invalid reference", 1, "failed (exit 1)"],
  ["terraform plan", "Error: Unsupported argument", 2, "failed (exit 2)"],
  ["terraform apply -auto-approve", "Error: creating EC2 Instance", 2, "failed (exit 2)"],
  ["terraform plan -detailed-exitcode; echo done", "Plan: 1 to add\ndone", 2, "failed (exit 2)"],
  ["terraform plan -detailed-exitcode", "", 1, "failed (exit 1)"],
  ["diff a.txt b.txt", "diff: b.txt: No such file or directory", 2, "failed (exit 2)"],
  ["git merge-base --is-ancestor 1a2b3c main", "", 1, "false (exit 1)"],
  // A `cd` that failed ran nothing after it.
  [
    "cd /srv/app/confg && diff -u nginx.conf nginx.conf.bak",
    "bash: line 1: cd: /srv/app/confg: No such file or directory",
    1,
    "failed (exit 1)",
  ],
  [
    "cd /srv/frontnd && git diff --quiet",
    "bash: cd: /srv/frontnd: Not a directory",
    1,
    "failed (exit 1)",
  ],
  [
    "git merge-base --is-ancestor nosuch main",
    "fatal: Not a valid object name nosuch",
    128,
    "failed (exit 128)",
  ],
  // `gh pr checks` exits 8 while a check is pending, 1 when one failed.
  ["gh pr checks 412", GH_PENDING, 8, "checks pending (exit 8)"],
  ["cd /repo && gh pr checks --repo acme/api 412", GH_PENDING_TTY, 8, "checks pending (exit 8)"],
  ["gh pr checks 412; echo $?", `${GH_PENDING}\n8`, 0, "checks pending (exit 8)"],
  ["gh pr checks 412", GH_FAILING, 1, "failed (exit 1)"],
  ["gh pr checks 412", "no checks reported on the 'fix' branch", 8, "failed (exit 8)"],
  ["gh run view 99 --exit-status", GH_PENDING, 8, "failed (exit 8)"],
  ["gh pr checks 412 | grep e2e", "e2e\tpending\t0", 8, "failed (exit 8)"],
  // A service asked for its status exits 3 when it is not running.
  [
    "systemctl status shopapp --no-pager",
    "× shopapp.service - Shop\n     Active: failed (Result: exit-code) since Fri",
    3,
    "not running (exit 3)",
  ],
  ["sudo systemctl is-active nginx", "inactive", 3, "not running (exit 3)"],
  [
    "service nginx status",
    " * nginx is not running\nActive: inactive (dead)",
    3,
    "not running (exit 3)",
  ],
  ["systemctl status nosuch", "Unit nosuch.service could not be found.", 4, "failed (exit 4)"],
  ["systemctl status nginx php8.2-fpm", "Active: inactive (dead)", 3, "failed (exit 3)"],
  ["systemctl status 'app-worker@*'", "Active: inactive (dead)", 3, "failed (exit 3)"],
  ["systemctl restart shopapp", "Job for shopapp.service failed.", 3, "failed (exit 3)"],
  ["systemctl status shopapp", "Failed to connect to bus", 3, "failed (exit 3)"],
  ["test -f build/out.js", "", 1, "false (exit 1)"],
  ["[ -d node_modules ]", "", 1, "false (exit 1)"],
  ["pytest -q", "1 failed", 1, "failed (exit 1)"],
  ["echo $(grep x y)", "", 1, "failed (exit 1)"],
  [
    "./deploy.sh",
    "Uploading...\nError: Authentication Failed",
    0,
    "succeeded (exit 0) but printed an error",
  ],
  [
    "python app.py 2>&1 | tail -3",
    "starting\nTraceback (most recent call last):\nValueError: bad",
    0,
    "ran (exit 0 of tail) but printed an error",
  ],
  [
    "cd /repo && python -m pytest -x 2>&1 | tail -50",
    "22 passed in 0.51s",
    0,
    "ran (exit 0 of tail)",
  ],
  [
    "python -m pytest -x | head -100",
    "/opt/conda/bin/python: No module named pytest",
    0,
    "ran (exit 0 of head) but printed an error",
  ],
  // `exit ${PIPESTATUS[0]}` passes on the status of the pipeline's first program.
  [
    "go test ./... 2>&1 | tee t.log; exit ${PIPESTATUS[0]}",
    "ok  a/b 0.1s",
    0,
    "succeeded (exit 0)",
  ],
  ['cd /srv && make 2>&1 | tee b.log; exit "${PIPESTATUS[0]}"', "built", 0, "succeeded (exit 0)"],
  ["go test ./... | tee t.log; exit ${PIPESTATUS[0]}", "FAIL\ta/b", 1, "failed (exit 1)"],
  ["go test ./... | tee t.log; exit ${PIPESTATUS[1]}", "ok", 0, "ran (exit 0 of exit)"],
  ["make; go test | tee t.log; exit ${PIPESTATUS[0]}", "ok", 0, "ran (exit 0 of exit)"],
  ["go test ./... | tee t.log; exit $?", "ok", 0, "ran (exit 0 of exit)"],
  // The work's status as the line echoed it last is the work's outcome.
  [
    './gradlew build; echo "gradle exit=$?"',
    "BUILD SUCCESSFUL in 2m\ngradle exit=0",
    0,
    "succeeded (exit 0)",
  ],
  [
    './gradlew build; echo "gradle exit=$?"',
    "BUILD FAILED in 2m\ngradle exit=1",
    0,
    "failed (exit 1)",
  ],
  ['cd /srv && make test\necho "rc=${?}"', "ok\nrc=2", 0, "failed (exit 2)"],
  ["pip install -e . && pytest -q; echo $?", "3 failed\n1", 0, "failed (exit 1)"],
  ["grep -n TODO a.py; echo $?", "1", 0, "no match (exit 1)"],
  ["diff a.txt b.txt; echo $?", "1c1\n< a\n---\n> b\n1", 0, "differences found (exit 1)"],
  ["make | tee b.log; echo $?", "0", 0, "ran (exit 0 of echo)"],
  ["make || make clean; echo $?", "0", 0, "ran (exit 0 of echo)"],
  ["make; echo $? $HOME", "0 /root", 0, "ran (exit 0 of echo)"],
  ["make; echo $?", "0\nmore", 0, "ran (exit 0 of echo)"],
  ["make build || true", "", 0, "ran (exit 0 of true)"],
  // git doing work reports its own outcome: its status is hidden by a pipe.
  [
    "git push origin main 2>&1 | tail -2",
    " ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'github.com:a/b'",
    0,
    "ran (exit 0 of tail) but printed an error",
  ],
  [
    "git log --oneline -3 | tail -1",
    "9f8e7d6 Log ERROR when retries run out",
    0,
    "succeeded (exit 0)",
  ],
  // A `;` after `&&` runs the rest whatever the work did.
  ["./gradlew test -q > t.log 2>&1 && echo OK; wc -l t.log", "812 t.log", 0, "ran (exit 0 of wc)"],
  // A comment is no step; a here-document's closing word is none either, however it is spelled.
  ["npm run lint  # then: && npm test; make", "ok", 0, "succeeded (exit 0)"],
  ["python3 - <<'PY-SCRIPT'\nprint(1)\nPY-SCRIPT", "1", 0, "succeeded (exit 0)"],
  ["git commit -F - <<\\MSG\nfix it\nMSG", "[main 1a2b3c4] fix it", 0, "succeeded (exit 0)"],
  // A compound command's status is its last run's or its branch's, which names no program.
  [
    "for v in tls1_2 tls1_3; do openssl s_client -$v -connect a:443 </dev/null | head -3; done",
    "CONNECTED(00000003)",
    0,
    "ran (exit 0 of loop)",
  ],
  ["if make; then echo built; else echo failed; fi", "built", 0, "ran (exit 0 of if)"],
  ["cat app.py | head -20", "import os", 0, "succeeded (exit 0)"],
  ["grep -rn TODO src | head", "src/a.py:1:# TODO", 0, "succeeded (exit 0)"],
  ["python -m pytest -x 2>&1 | tail -50", "1 failed", 1, "failed (exit 1)"],
  ["cargo build", "error[E0308]: mismatched types", 0, "succeeded (exit 0) but printed an error"],
  // `curl` without `-f` exits 0 whatever the status of the response it printed.
  [
    "curl -s http://localhost:3000/api/v1/invoices/overdue",
    '{"status":500,"error":"Internal Server Error"}',
    0,
    "succeeded (exit 0) but printed an error",
  ],
  [
    "curl -si localhost:8080/health",
    "HTTP/1.1 503 Service Unavailable\ncontent-length: 0",
    0,
    "succeeded (exit 0) but printed an error",
  ],
  ["curl -si localhost:8080/health", "HTTP/1.1 200 OK\n\nok", 0, "succeeded (exit 0)"],
  ["cat response.json", '{"status":500,"error":"Internal Server Error"}', 0, "succeeded (exit 0)"],
  ["cat app.log", "Error: Authentication Failed", 0, "succeeded (exit 0)"],
  ["/usr/bin/cat app.log", "Error: Authentication Failed", 0, "succeeded (exit 0)"],
  [
    "FOO=1 ./deploy.sh",
    "Error: Authentication Failed",
    0,
    "succeeded (exit 0) but printed an error",
  ],
  ["grep -rn 'Error:' logs", "logs/a:1:Error: x", 0, "succeeded (exit 0)"],
  ["./deploy.sh", "Error: retrying\nok\nok\nok\nok\nok\ndone", 0, "succeeded (exit 0)"],
  ["pytest -q", "test_errors.py::test_error_path PASSED\n3 passed", 0, "succeeded (exit 0)"],
];

Deno.test("readOutcome() reads an exit status in the light of the command that returned it", async (t) => {
  for (const [line, output, exit, expected] of CASES) {
    await t.step(`${line} → ${exit}`, () => {
      const outcome = readOutcome(result(output, exit), { command: true, commandLine: line });
      assert.equal(describeState(outcome), expected);
    });
  }
});

Deno.test("readOutcome() keeps the error line a command printed despite exit 0", () => {
  const outcome = readOutcome(result("Uploading…\nError: Authentication Failed\n", 0), {
    command: true,
    commandLine: "./deploy.sh prod",
  });
  assert.equal(outcome.reportedError, "Error: Authentication Failed");
});
