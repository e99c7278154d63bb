/**
 * Error lines: which lines of an output are errors must not depend on what else the output holds.
 * The lines are written by hand (levels as programs in several languages print them, and lines
 * that only mention an error); the outputs around them are generated.
 */
import assert from "node:assert/strict";
import { errorFingerprint, errorLines, isRelayedFailure } from "../../src/core/error_lines.ts";
import { SeededRandom } from "../../src/sample/mod.ts";

// Each line and what it is: the error text kept (timestamp left out), or undefined for none.
const LINES: ReadonlyArray<readonly [string, string | undefined]> = [
  [
    "2026-12-01 10:11:12 ERROR payment declined order=A-1204",
    "ERROR payment declined order=A-1204",
  ],
  ["FEHLER: Datei config.yml fehlt", "FEHLER: Datei config.yml fehlt"],
  ["HATA baglanti reddedildi port 5432", "HATA baglanti reddedildi port 5432"],
  ["FOUT: bestand ontbreekt", "FOUT: bestand ontbreekt"],
  ["ERREUR : fichier manquant", "ERREUR : fichier manquant"],
  ["[错误] 库存同步失败 SKU KX-9", "[错误] 库存同步失败 SKU KX-9"],
  ["ОШИБКА: нет доступа к /srv", "ОШИБКА: нет доступа к /srv"],
  ['level=error msg="queue full"', 'level=error msg="queue full"'],
  ["<fatal> worker 3 died", "<fatal> worker 3 died"],
  ["error[E0308]: mismatched types", "error[E0308]: mismatched types"],
  ["E   KeyError: 'sku'", "KeyError: 'sku'"],
  ["npm ERR! missing script: build", "npm ERR! missing script: build"],
  ["CRITICAL: disk almost full", "CRITICAL: disk almost full"],
  ["EMERGENCY power loss on rack 4", "EMERGENCY power loss on rack 4"],
  ["Errore: file mancante", "Errore: file mancante"],
  ["Erro: arquivo não encontrado", "Erro: arquivo não encontrado"],
  ["java.lang.IllegalStateException: closed", "IllegalStateException: closed"],
  ["app.errors.QuotaException", "QuotaException"],
  [
    "CONFLICT (content): Merge conflict in tally/__init__.py",
    "CONFLICT (content): Merge conflict in tally/__init__.py",
  ],
  ["resolve the conflict (see docs) first", undefined],
  ["error handling is in errors.py", undefined],
  ["ERROR_CODES = {1: 'x'}", undefined],
  ["the Fehlerbehandlung module", undefined],
  ["if err != nil { return err }", undefined],
  ['return fmt.Errorf("load %s: %w", path, err)', undefined],
  ["raise ValueError(message)", undefined],
  ["builtins.ValueError  ", "ValueError"],
  [
    "/opt/miniconda3/bin/python: No module named pytest",
    "/opt/miniconda3/bin/python: No module named pytest",
  ],
  ["bash: line 1: pytest: command not found", "bash: line 1: pytest: command not found"],
  ["sh: 1: tox: not found", "sh: 1: tox: not found"],
  ["cat: notes.txt: No such file or directory", "cat: notes.txt: No such file or directory"],
  [
    "python: can't open file '/repo/run.py': [Errno 2] No such file or directory",
    "python: can't open file '/repo/run.py': [Errno 2] No such file or directory",
  ],
  [
    "git@github.com: Permission denied (publickey).",
    "git@github.com: Permission denied (publickey).",
  ],
  ["make: *** [Makefile:3: all] Error 2", "make: *** [Makefile:3: all] Error 2"],
  [
    "make[1]: *** No rule to make target 'x'.  Stop.",
    "make[1]: *** No rule to make target 'x'.  Stop.",
  ],
  [
    "patch: **** malformed patch at line 79: @@ -1 +1 @@",
    "patch: **** malformed patch at line 79: @@ -1 +1 @@",
  ],
  [
    "patch: **** Only garbage was found in the patch input.",
    "patch: **** Only garbage was found in the patch input.",
  ],
  ["patching file src/a.py", undefined],
  ["362:2026-06-11 02:14:09 ERROR kernel overflow", "ERROR kernel overflow"],
  ["513:ERROR cache miss storm", "ERROR cache miss storm"],
  ["12:30 ERROR disk full", "12:30 ERROR disk full"],
  ["\u001b[31mERROR\u001b[0m \u001b[1mbuild failed\u001b[22m", "ERROR build failed"],
  ["\u001b[1;31merror\u001b[0m: linker `cc` not found", "error: linker `cc` not found"],
  ['src/io.py:12:    raise OSError("No such file or directory")', undefined],
  ["the key was not found in the cache, so it is rebuilt", undefined],
  ["Permission denied errors are retried twice", undefined],
  ["*** Update File: tally/stats.py", undefined],
  ["  ● orders › rejects discount over 100%", "● orders › rejects discount over 100%"],
  ["  ● Test suite failed to run", "● Test suite failed to run"],
  ["  ✓ lists orders (12 ms)", undefined],
  ["Legend: ● failed, ○ skipped", undefined],
  [
    "  ✘   2 [chromium] › cart.spec.ts:40:5 › checkout applies coupon (5.1s)",
    "✘   2 [chromium] › cart.spec.ts:40:5 › checkout applies coupon (5.1s)",
  ],
  ["  ✓   1 [chromium] › auth.spec.ts:12:3 › login works (1.2s)", undefined],
  [
    "thread 'main' panicked at 'index out of bounds', src/main.rs:3:5",
    "thread 'main' panicked at 'index out of bounds', src/main.rs:3:5",
  ],
  ["the worker thread panicked at startup once (see docs)", undefined],
  ["==71422== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)", undefined],
  [
    "==71422== ERROR SUMMARY: 2 errors from 2 contexts (suppressed: 0 from 0)",
    "ERROR SUMMARY: 2 errors from 2 contexts (suppressed: 0 from 0)",
  ],
  // Sanitizers' and Valgrind's reports, after the process id they write first.
  [
    "==48377==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000f50 at pc 0x55d4",
    "ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000f50 at pc 0x55d4",
  ],
  [
    "SUMMARY: AddressSanitizer: heap-use-after-free /src/parser.cpp:142 in ledger::Parser::next()",
    "SUMMARY: AddressSanitizer: heap-use-after-free /src/parser.cpp:142 in ledger::Parser::next()",
  ],
  ["==48377==ABORTING", undefined],

  ["==12345== HEAP SUMMARY:", undefined],
  ["==12345==     in use at exit: 0 bytes in 0 blocks", undefined],
  ["an Invalid read of size 4 is what valgrind reports", undefined],
  [
    "src/format.cpp:31:12: runtime error: signed integer overflow: 2147483647 + 1 in type 'int'",
    "src/format.cpp:31:12: runtime error: signed integer overflow: 2147483647 + 1 in type 'int'",
  ],
  ["the runtime error: section of the guide", undefined],
  // journalctl's lines, after the host and the program with its process id.
  [
    "Mar 14 11:02:03 web01 gunicorn[4242]: OSError: [Errno 28] No space left on device",
    "OSError: [Errno 28] No space left on device",
  ],
  ["Mar 14 11:02:03 web01 gunicorn[4242]: Booting worker with pid: 4242", undefined],
  [
    'Mar 14 10:58:01 web01 nginx[811]: nginx: [emerg] cannot load certificate "/etc/ssl/a.pem"',
    'nginx: [emerg] cannot load certificate "/etc/ssl/a.pem"',
  ],
  [
    "2025/03/14 10:58:01 [crit] 811#811: *1 connect() failed",
    "2025/03/14 10:58:01 [crit] 811#811: *1 connect() failed",
  ],
  [
    "2025/03/14 10:58:02 [alert] 811#811: worker process 812 exited on signal 9",
    "2025/03/14 10:58:02 [alert] 811#811: worker process 812 exited on signal 9",
  ],
  // OpenSSL's, after the thread it names.
  [
    "40E7C8A1F27F0000:error:0A000410:SSL routines::sslv3 alert handshake failure:ssl/a.c:1584",
    "40E7C8A1F27F0000:error:0A000410:SSL routines::sslv3 alert handshake failure:ssl/a.c:1584",
  ],
  ["DEADBEEF:errors seen: none", undefined],
  // systemd's header of a unit's status: `●` for one loaded, `×` for one that failed.
  ["● nginx.service - A high performance web server", undefined],
  [
    "× nginx.service - A high performance web server",
    "× nginx.service - A high performance web server",
  ],
  ["● orders › rejects a discount over 100%", "● orders › rejects a discount over 100%"],
  ["3 × 4 = 12", undefined],
  // A level's word in a file's name, and a markdown admonition, are no tags.
  ["FAILED.txt", undefined],
  ["ERROR.log  app.log  notes.md", undefined],
  ["- [Alert] banner shows the maintenance window", undefined],
  // A setting whose value is a level.
  ["LOG_LEVEL: ERROR", undefined],
  ['  log_level = "error",', undefined],
  ["level=error", undefined],
  // An HTTP response's error status: its status line, or a JSON body stating it with its error.
  ["HTTP/1.1 500 Internal Server Error", "HTTP/1.1 500 Internal Server Error"],
  ["< HTTP/2 404", "< HTTP/2 404"],
  ["HTTP/1.1 200 OK", undefined],
  ["see HTTP/1.1 500 in the runbook", undefined],
  [
    '{"status":500,"error":"Internal Server Error","exception":"#<NoMethodError: x>"}',
    '{"status":500,"error":"Internal Server Error","exception":"#<NoMethodError: x>"}',
  ],
  [
    '{"message":"down","error":"Service Unavailable","statusCode":503}',
    '{"message":"down","error":"Service Unavailable","statusCode":503}',
  ],
  ['{"status":200,"error":null}', undefined],
  ['{"url":"https://a.test/x","status":404,"error":null}', undefined],
  ['{"status":404,"error":""}', undefined],
  ['[{"url":"https://a.test/x","status":404,"error":"gone"}]', undefined],
  ['{"status":"500 rows","error":null}', undefined],
  ['[{"id":7,"status":502}]', undefined],
  // CTest's list of the tests that failed.
  ["  3 - Parser.ReusesBufferAfterReset (Failed)", "3 - Parser.ReusesBufferAfterReset (Failed)"],
  ["  7 - io.Load (SEGFAULT)", "7 - io.Load (SEGFAULT)"],
  ["  2 - retries (Passed)", undefined],
  ["see item 3 - the parser notes (Failed) in the wiki", undefined],
  ["Build FAILED: 0 errors, 1 failed", "Build FAILED: 0 errors, 1 failed"],
  [
    "taps.cpp:23:1: error: redefinition of 'sigproc::fir::Taps::~Taps()'",
    "taps.cpp:23:1: error: redefinition of 'sigproc::fir::Taps::~Taps()'",
  ],
  [
    "src/main.c:1:10: fatal error: foo.h: No such file or directory",
    "src/main.c:1:10: fatal error: foo.h: No such file or directory",
  ],
  [
    "/usr/bin/ld: fir.o: in function `main': undefined reference to `design_lowpass(double, int)'",
    "/usr/bin/ld: fir.o: in function `main': undefined reference to `design_lowpass(double, int)'",
  ],
  ["docs/errors.md:3: the error: section explains retries", undefined],
  [
    "internal/health/checker_test.go:41:18: undefined: errRedisNotConfigured",
    "internal/health/checker_test.go:41:18: undefined: errRedisNotConfigured",
  ],
  [
    "internal/api/handlers.go:112:12: Error return value of `w.Write` is not checked (errcheck)",
    "internal/api/handlers.go:112:12: Error return value of `w.Write` is not checked (errcheck)",
  ],
  ["see internal/health/checker.go:41 for the details", undefined],
  ["ERROR SUMMARY: 0 errors, 1,204 checks", undefined],
  ["FAIL", undefined],
  ["[ERROR]", undefined],
  ["FAIL: TestLoad", "FAIL: TestLoad"],
  ["[ERROR] -> [Help 1]", undefined],
  ["[ERROR] Re-run Maven using the -X switch to enable full debug logging.", undefined],
  ["[ERROR]     src/main/java/com/acme/orders/config/JacksonConfig.java", undefined],
  [
    "[ERROR] /src/main/java/com/acme/Order.java:[3,24] package javax.persistence does not exist",
    "[ERROR] /src/main/java/com/acme/Order.java:[3,24] package javax.persistence does not exist",
  ],
  [
    "src/server.ts(18,21): error TS2345: Argument of type 'string' is not assignable.",
    "src/server.ts(18,21): error TS2345: Argument of type 'string' is not assignable.",
  ],
  [
    "src/server.ts:18:21 - error TS2345: Argument of type 'string' is not assignable.",
    "src/server.ts:18:21 - error TS2345: Argument of type 'string' is not assignable.",
  ],
  [
    "Program.cs(5,13): error CS0103: The name 'total' does not exist [/src/app/app.csproj]",
    "Program.cs(5,13): error CS0103: The name 'total' does not exist [/src/app/app.csproj]",
  ],
  [
    "main.cpp(12): error C2065: 'x': undeclared identifier",
    "main.cpp(12): error C2065: 'x': undeclared identifier",
  ],
  ["src/a.ts(3,7): warning TS6133: 'x' is declared but its value is never read.", undefined],
  ["the error TS2345 page (docs/ts.md:4) explains it", undefined],
  ["see src/server.ts(18,21): the error there is TS2345", undefined],
  ["ERROR SUMMARY: 1,204 errors", "ERROR SUMMARY: 1,204 errors"],
  [
    " ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @acme/admin@2.11.0 build: `tsc --noEmit`",
    "ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @acme/admin@2.11.0 build: `tsc --noEmit`",
  ],
  [" ELIFECYCLE  Command failed with exit code 2.", "ELIFECYCLE  Command failed with exit code 2."],
  ["WARNING: DATA RACE", "WARNING: DATA RACE"],
  [
    "WARNING: ThreadSanitizer: data race (pid=4121)",
    "WARNING: ThreadSanitizer: data race (pid=4121)",
  ],
  ["WARNING: deprecated option --data-race", undefined],
];

// Lines around the one under test: ASCII only, or with characters beyond ASCII elsewhere.
const PLAIN_FILLER = ["INFO started", "request 7 ok", "done in 3.1s"];
const WIDE_FILLER = ["INFO démarré ✓", "запрос 7 ok", "完成 3.1s"];

function* outputs(line: string): Generator<string> {
  for (const filler of [PLAIN_FILLER, WIDE_FILLER]) {
    for (let at = 0; at <= filler.length; at++) {
      yield [...filler.slice(0, at), line, ...filler.slice(at)].join("\n");
    }
  }
}

Deno.test("a line is an error line, or not, whatever the output around it holds", () => {
  for (const [line, expected] of LINES) {
    for (const output of outputs(line)) {
      assert.deepEqual(
        errorLines(output).map((found) => found.text),
        expected === undefined ? [] : [expected],
        `${JSON.stringify(line)} in ${JSON.stringify(output)}`,
      );
    }
  }
});

// What a workspace's runner writes before each line of a package's script: pnpm's, Turborepo's,
// Docker Compose's.
const RUNNER_PREFIXES = ["apps/admin build: ", "@acme/admin:build: ", "api-1  | "];

Deno.test("a line a workspace's runner prefixed is the error line it was, or still none", () => {
  for (const [line, expected] of LINES) {
    for (const prefix of RUNNER_PREFIXES) {
      const found = errorLines([...PLAIN_FILLER, `${prefix}${line}`].join("\n"));
      const shown = `${JSON.stringify(prefix + line)}: ${JSON.stringify(found)}`;
      assert.deepEqual(
        found.map((error) => error.text),
        expected === undefined ? [] : [expected],
        shown,
      );
    }
  }
});

Deno.test("error lines come in the order printed, repeats included", () => {
  // (One response's status lines but the last answer no request: one of them is printed.)
  const errors = LINES.filter(([line, expected]) =>
    expected !== undefined && !line.startsWith("HTTP/")
  );
  // Reports that end an output are read among its last 4000 characters: the output stays shorter.
  for (const printed of [errors, [...errors.slice(0, 8), ...errors.slice(0, 8)]]) {
    const output = printed.map(([line]) => line).join("\n");
    assert.ok(output.length < 4000);
    assert.deepEqual(
      errorLines(output).map((found) => found.text),
      printed.map(([, expected]) => expected),
    );
  }
});

Deno.test("reports that end an output are read among its last lines", () => {
  const filler = Array.from({ length: 400 }, (_, index) => `collected item ${index}`).join("\n");
  for (
    const report of [
      "bash: line 1: pytest: command not found",
      "src/server.ts(18,21): error TS2345: Argument of type 'string' is not assignable.",
      "src/server.ts:18:21 - error TS2345: Argument of type 'string' is not assignable.",
    ]
  ) {
    assert.deepEqual(errorLines(`${filler}\n${report}`).map((found) => found.text), [report]);
    assert.deepEqual(errorLines(`${report}\n${filler}`), [], report);
  }
});

Deno.test("a report followed by where it is goes with that place: the same report at two files is two errors", () => {
  // Reports as compilers, linters and runtimes print them, each with the form of the line after it
  // that tells where the error is.
  const reports: ReadonlyArray<readonly [string, (file: string, line: number) => string]> = [
    ["error[E0308]: mismatched types", (file, line) => `  --> ${file}:${line}:5`],
    ["error: used `unwrap()` on a `Result` value", (file, line) => `  --> ${file}:${line}:17`],
    [
      "error[E0425]: cannot find value `total` in this scope",
      (file, line) => ` --> ${file}:${line}:8`,
    ],
    [
      "TypeError: Cannot read properties of undefined (reading 'id')",
      (file, line) => `    at handler (${file}:${line}:14)`,
    ],
    ["Error: config not found", (file, line) => `    at file:///app/${file}:${line}:7`],
    ["error: Unexpected token", (file, line) => `   ╭─[${file}:${line}:1]`],
  ];
  const places = ["src/ledger/post.rs", "crates/core/src/account.rs", "web/app.ts"];
  for (const [report, place] of reports) {
    const texts = (file: string, line: number) =>
      errorLines(["Checking ledger v0.9.3", report, place(file, line), "   |"].join("\n"))
        .map((found) => found.text);
    assert.deepEqual(texts(places[0] as string, 12), [
      `${report} ${place(places[0] as string, 12).trim()}`,
    ]);
    const fingerprints = new Set(
      places.flatMap((file) =>
        [12, 340].map((line) => errorFingerprint(texts(file, line)[0] ?? ""))
      ),
    );
    assert.equal(fingerprints.size, places.length, `one error per file: ${report}`);
    // A place printed after something else is no place of the report.
    const apart = errorLines([report, "", place(places[1] as string, 3)].join("\n"));
    assert.deepEqual(apart.map((found) => found.text), [report]);
  }
});

Deno.test("Valgrind's report goes with its first frame: the same report at two places is two errors", () => {
  const random = new SeededRandom(17);
  for (let trial = 0; trial < 40; trial++) {
    const pid = random.range(100, 99_999);
    const report = random.pick(["Invalid read of size 4", "Invalid write of size 8"]);
    const frame = (file: string, line: number) =>
      `==${pid}==    at 0x${random.hex(6).toUpperCase()}: checksum (${file}:${line})`;
    const output = (file: string, line: number) =>
      [`==${pid}== Memcheck, a memory error detector`, `==${pid}== ${report}`, frame(file, line)]
        .join("\n");
    const texts = errorLines(output("checksum.cpp", 11)).map((found) => found.text);
    assert.equal(texts.length, 1, JSON.stringify(texts));
    assert.match(
      texts[0] as string,
      new RegExp(`^${report} at 0x[0-9A-F]+: checksum \\(checksum\\.cpp:11\\)$`),
    );
    const fingerprint = (file: string, line: number) =>
      errorFingerprint(errorLines(output(file, line))[0]?.text ?? "");
    assert.equal(fingerprint("checksum.cpp", 11), fingerprint("checksum.cpp", 11));
    assert.notEqual(fingerprint("checksum.cpp", 11), fingerprint("record.cpp", 11));
    // Its reports are read where Valgrind's banner or its summary says it ran (a `tail` of its
    // output keeps the summary); the same words from another program are none.
    const uninitialised = `==${pid}== Conditional jump or move depends on uninitialised value(s)`;
    const summary = `==${pid}== ERROR SUMMARY: 2 errors from 2 contexts (suppressed: 0 from 0)`;
    assert.deepEqual(errorLines([uninitialised, summary].join("\n")).map((found) => found.text), [
      "Conditional jump or move depends on uninitialised value(s)",
      "ERROR SUMMARY: 2 errors from 2 contexts (suppressed: 0 from 0)",
    ]);
    assert.deepEqual(errorLines(`==${pid}== ${report}\ndone`), []);
  }
});

Deno.test("a Rust panic's line takes its message from the next line, unless that line is an error of its own", () => {
  // Rust prints a panic's place on its line and its message on the next (since 1.73).
  const panic = "thread 'posting::tests::rounding' panicked at crates/core/src/posting.rs:211:9:";
  const message = "assertion `left == right` failed: 1.255 should round to 1.26";
  assert.deepEqual(
    errorLines(["running 88 tests", panic, message, "  left: 1.25"].join("\n")).map((found) =>
      found.text
    ),
    [`${panic} ${message}`],
  );
  const filtered = [panic, "error: test failed, to rerun pass `-p core --lib`"];
  assert.deepEqual(errorLines(filtered.join("\n")).map((found) => found.text), filtered);
  assert.deepEqual(errorLines(`running 1 test\n${panic}`).map((found) => found.text), [panic]);
});

Deno.test("an exception named alone takes its message from the next line, unless that line is an error of its own", () => {
  const random = new SeededRandom(41);
  for (let trial = 0; trial < 30; trial++) {
    // RSpec prints a failure's exception on a line of its own and its message indented under it.
    const name = random.pick(["NoMethodError", "NameError", "ArgumentError", "ZeroDivisionError"]);
    const message = `undefined method \`${random.hex(6)}' for #<Invoice id: ${
      random.range(1, 99)
    }>`;
    const output = [
      "Failures:",
      "",
      `  1) Invoice#${random.hex(4)} is true`,
      "     Failure/Error: expect(invoice.overdue?).to be(true)",
      "",
      `     ${name}:`,
      `       ${message}`,
      "     # ./spec/models/invoice_spec.rb:42",
    ].join("\n");
    assert.deepEqual(errorLines(output).map((found) => found.text), [`${name}: ${message}`]);
    // A message that is an error line of its own stays one; a name at the end takes nothing.
    const own = `ERROR ${random.hex(4)} refused`;
    assert.deepEqual(errorLines(`${name}:\n${own}`).map((found) => found.text), [`${name}:`, own]);
    assert.deepEqual(errorLines(`ok\n${name}:`).map((found) => found.text), [`${name}:`]);
  }
});

// Code as programs quote it: lines holding a level's word, a report's or an exception's name.
const CODE_LINES = [
  "None => return ExitCode::FAILURE,",
  'panic!("error: unreachable state");',
  "raise ValueError('bad input')",
  "throw new Error(`ERROR ${code}`);",
  'log.Fatal("FATAL: cannot bind")',
  'fprintf(stderr, "error: %s\\n", msg);',
];

Deno.test("source code a compiler or linter quotes in its numbered gutter is no error line", () => {
  const random = new SeededRandom(11);
  for (let round = 0; round < 40; round++) {
    const at = random.range(1, 9_999);
    const code = random.pick(CODE_LINES);
    const width = String(at).length + random.range(0, 3);
    const gutter = (line: number) => `${String(line).padStart(width)} | `;
    const quoted = [
      `${" ".repeat(width)} |`,
      `${random.chance(0.3) ? "> " : ""}${gutter(at)}${random.chance(0.5) ? "| " : ""}    ${code}`,
      `${" ".repeat(width)} |     ^^^^`,
    ];
    const report = random.chance(0.5)
      ? `warning: this could be rewritten (clippy::${random.hex(6)})`
      : `error[E0${random.range(100, 999)}]: mismatched types`;
    const output = [report, `  --> src/main.rs:${at}:5`, ...quoted, ""].join("\n");
    const found = errorLines(output).map((line) => line.text);
    assert.ok(found.every((text) => !text.includes(code)), `${code}: ${found.join(" | ")}`);
    assert.equal(found.length, report.startsWith("error") ? 1 : 0, found.join(" | "));
  }
  // A log line a program's name prefixes, or one numbered as read_file shows it, is still read.
  assert.deepEqual(errorLines("0|api      | ERROR queue full").map((line) => line.text), [
    "api      | ERROR queue full",
  ]);
  assert.deepEqual(errorLines("12|ERROR queue full").map((line) => line.text), [
    "ERROR queue full",
  ]);
});

Deno.test("rustc's report takes what its carets say of the code, and Go's failed test its message", () => {
  const random = new SeededRandom(12);
  for (let round = 0; round < 30; round++) {
    const line = random.range(1, 900);
    const [expected, found] = [random.pick(["i64", "u32", "&str"]), random.pick(["u64", "String"])];
    const label = `expected \`${expected}\`, found \`${found}\``;
    const place = `--> crates/core/src/m${random.hex(3)}.rs:${line}:${random.range(1, 40)}`;
    const rust = [
      `error[E0308]: mismatched types`,
      `   ${place}`,
      "    |",
      `${line} |         let total: ${expected} = amount;`,
      `    |                    ---   ${"^".repeat(random.range(1, 9))} ${label}`,
      "    |                    |",
      "    |                    expected due to this",
    ].join("\n");
    assert.deepEqual(errorLines(rust).map((error) => error.text), [
      `error[E0308]: mismatched types ${place} ${label}`,
    ]);
    const want = random.range(0, 9);
    const test = `TestRetry/max_retries_${want}`;
    const message = `retry_test.go:${line}: attempts = ${want + 1}, want ${want}`;
    const go = [
      `=== RUN   ${test}`,
      `    --- FAIL: ${test} (0.${random.range(10, 99)}s)`,
      `        ${message}`,
    ]
      .join("\n");
    const texts = errorLines(go).map((error) => error.text);
    assert.equal(texts.length, 1, texts.join(" | "));
    assert.ok(texts[0]?.endsWith(` ${message}`), texts[0]);
  }
});

Deno.test("make's report of a recipe whose failure it ignored is an error line make only relays", () => {
  const random = new SeededRandom(13);
  for (let round = 0; round < 20; round++) {
    const report = `make${random.chance(0.3) ? `[${random.range(1, 4)}]` : ""}: [Makefile:${
      random.range(1, 300)
    }: ${random.pick(["proto", "lint", "docs"])}] Error ${random.range(1, 2)} (ignored)`;
    const output = [`protoc --go_out=gen a.proto`, report, "go build ./..."].join("\n");
    const found = errorLines(output);
    assert.deepEqual(found.map((line) => line.text), [report]);
    assert.ok(isRelayedFailure(report), report);
  }
});

Deno.test("a JavaScript error takes its first frame, a JVM exception none (its first frames are the test framework's)", () => {
  const js = [
    "TypeError: Cannot read properties of undefined (reading 'rate')",
    "    at total (file:///app/src/cart.ts:42:17)",
  ];
  assert.deepEqual(errorLines(js.join("\n")).map((line) => line.text), [
    `${js[0]} ${js[1]?.trim()}`,
  ]);
  const jvm = [
    "    org.opentest4j.AssertionFailedError: expected: <120> but was: <119>",
    "        at app//org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)",
  ];
  assert.deepEqual(errorLines(jvm.join("\n")).map((line) => line.text), [
    "AssertionFailedError: expected: <120> but was: <119>",
  ]);
  // Kotlin's warnings are none; its errors are reports, in either form it writes them.
  assert.deepEqual(
    errorLines([
      "w: file:///a/X.kt:3:9 Parameter 'n' is never used",
      "e: file:///a/X.kt:12:5 Unresolved reference: toMinorUnits",
      "e: /a/Y.kt: (27, 31): Type mismatch: inferred type is Int but Long was expected",
    ].join("\n")).map((line) => line.kind),
    ["report", "report"],
  );
});

Deno.test("CTest's and GoogleTest's lines around the failed tests' list only relay the failures", () => {
  const random = new SeededRandom(19);
  for (let round = 0; round < 20; round++) {
    const failed = Array.from(
      { length: random.range(1, 4) },
      (_, index) =>
        `${index + 1} - ${random.pick(["Parser", "CsvWriter", "Io"])}.${random.hex(5)} (Failed)`,
    );
    const count = `${failed.length} FAILED TEST${failed.length === 1 ? "" : "S"}`;
    const output = [
      `${100 - failed.length * 10}% tests passed, ${failed.length} tests failed out of 10`,
      "The following tests FAILED:",
      ...failed.map((line) => `\t  ${line}`),
      "Errors while running CTest",
      ` ${count}`,
    ].join("\n");
    const found = errorLines(output).map((line) => line.text);
    // Each failed test is an error line of its own; the lines around them only relay.
    assert.deepEqual(found.filter((line) => !isRelayedFailure(line)), failed);
    assert.deepEqual(found.filter(isRelayedFailure), ["The following tests FAILED:", count]);
  }
});

Deno.test("the same error with other ids that start with a digit has one fingerprint", () => {
  const random = new SeededRandom(43);
  const base36 = "0123456789abcdefghijklmnopqrstuvwxyz";
  const id = () =>
    `${random.range(1, 9)}${
      Array.from({ length: random.range(1, 4) }, () => base36[random.int(36)]).join("")
    }`;
  for (let trial = 0; trial < 40; trial++) {
    const line = (tid: string, job: string) =>
      `pid=${random.range(2, 99)} tid=${tid} ERROR: ReminderMailer failed for job ${job}`;
    assert.equal(
      errorFingerprint(line(`${random.range(1, 9)}a${id()}`, id())),
      errorFingerprint(line(`${random.range(1, 9)}z${id()}`, id())),
    );
    // A name's digits still tell errors apart.
    assert.notEqual(
      errorFingerprint(`error TS${random.range(1000, 4999)}: x`),
      errorFingerprint(`error TS${random.range(5000, 9999)}: x`),
    );
  }
});

Deno.test("an HTTP status line a later one follows (a redirect's, a challenge's) is no error", () => {
  const random = new SeededRandom(71);
  for (let trial = 0; trial < 20; trial++) {
    const first = random.pick(["401 Unauthorized", "302 Found", "301 Moved Permanently"]);
    const last = random.pick(["200 OK", "503 Service Unavailable"]);
    const output = [
      `HTTP/1.1 ${first}`,
      `WWW-Authenticate: Digest realm="${random.hex(4)}"`,
      "",
      `HTTP/1.1 ${last}`,
      "content-length: 2",
    ].join("\n");
    const found = errorLines(output).map((line) => line.text);
    assert.deepEqual(found, last.startsWith("5") ? [`HTTP/1.1 ${last}`] : [], output);
  }
});
