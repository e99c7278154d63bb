import { type Failure, PROJECT_KINDS, PROJECT_NAMES, type ProjectKind } from "./_projects.ts";
import {
  ASSISTANT_REMARKS,
  SYNTHETIC_USER_ROWS,
  USER_FOLLOW_UPS,
  USER_REQUESTS,
} from "./_phrases.ts";
import {
  fakeImageData,
  multimodalResult,
  numberedListing,
  outputLines,
  outputSize,
  searchResult,
  terminalResult,
  unifiedDiff,
} from "./_tool_results.ts";
import type { CallSpec, WindowBuilder } from "./window_builder.ts";

interface OpenFailure {
  readonly command: string;
  readonly failure: Failure;
  read: boolean;
  patched: boolean;
}

/**
 * One coding session on a made-up project, told step by step into a {@linkcode WindowBuilder}:
 * requests, failing and fixed commands, file reads and patches, background processes, blocked
 * commands, odd rows (orphans, invalid arguments) and pruned results.
 */
export class SessionStory {
  readonly #out: WindowBuilder;
  readonly #kind: ProjectKind;
  readonly #name: string;
  readonly #root: string;
  #open: OpenFailure | undefined;

  constructor(out: WindowBuilder) {
    this.#out = out;
    this.#kind = out.random.pick(PROJECT_KINDS);
    this.#name = out.random.pick(PROJECT_NAMES);
    this.#root = `/home/dev/${this.#name}`;
  }

  /** Opens the session with a user request. */
  begin(): void {
    this.#request();
  }

  /** Tells the next step, sizing its outputs to at most `maxOutput` characters. */
  step(maxOutput: number): void {
    const random = this.#out.random;
    const open = this.#open;
    if (open && random.chance(0.85)) return this.#workOnFailure(open, maxOutput);
    const roll = random.next();
    if (roll < 0.05) return this.#request();
    if (roll < 0.09) return this.#out.user(this.#fill(random.pick(USER_FOLLOW_UPS)));
    if (roll < 0.12) return this.#syntheticUser();
    if (roll < 0.32) return this.#runTests(maxOutput);
    if (roll < 0.40) return this.#readFile(this.#path(random.pick(this.#kind.files)), maxOutput);
    if (roll < 0.46) return this.#search(maxOutput);
    if (roll < 0.53) return this.#lint(maxOutput);
    if (roll < 0.58) return this.#background(maxOutput);
    if (roll < 0.63) return this.#guarded();
    if (roll < 0.71) return this.#hardFailure(maxOutput);
    if (roll < 0.76) return this.#executeCode(maxOutput);
    if (roll < 0.80) return this.#writeFile(maxOutput);
    if (roll < 0.85) return this.#git(maxOutput);
    if (roll < 0.88) return this.#parallelReads(maxOutput);
    if (roll < 0.91) return this.#screenshot();
    if (roll < 0.95) return this.#oddity();
    this.#remark();
  }

  /** Ends the window with an assistant remark of about `size` characters. */
  finish(size: number): void {
    let text = this.#fill(this.#out.random.pick(ASSISTANT_REMARKS));
    while (text.length < size) text += ` ${this.#fill(this.#out.random.pick(ASSISTANT_REMARKS))}`;
    this.#out.assistant(text.slice(0, Math.max(1, size)));
  }

  #path(file: string): string {
    return `${this.#root}/${file}`;
  }

  #fill(template: string): string {
    const random = this.#out.random;
    return template
      .replaceAll("{project}", this.#name)
      .replaceAll("{file}", this.#path(random.pick(this.#kind.files)))
      .replaceAll("{cmd}", this.#kind.testCommand)
      .replaceAll("{error}", random.pick(this.#kind.failures).name)
      .replaceAll("{proc}", `proc_${random.hex(8)}`);
  }

  #terminal(command: string, extra: Record<string, unknown> = {}): CallSpec {
    return { tool: "terminal", args: { command, ...extra } };
  }

  #request(): void {
    const random = this.#out.random;
    const text = this.#fill(random.pick(USER_REQUESTS));
    this.#out.user(
      random.chance(0.1)
        ? [{ type: "text", text }, { type: "image_url", image_url: { url: fakeImageData(random) } }]
        : text,
    );
  }

  #syntheticUser(): void {
    this.#out.user(this.#fill(this.#out.random.pick(SYNTHETIC_USER_ROWS)));
  }

  #remark(): void {
    this.#out.assistant(this.#fill(this.#out.random.pick(ASSISTANT_REMARKS)));
  }

  #testCommand(): string {
    const random = this.#out.random;
    const command = random.chance(0.6)
      ? this.#kind.testCommand
      : random.pick(this.#kind.focusedTestCommands);
    return random.chance(0.5) ? `cd ~/${this.#name} && ${command}` : command;
  }

  #runTests(maxOutput: number): void {
    const random = this.#out.random;
    const command = this.#testCommand();
    const size = outputSize(random, maxOutput);
    if (random.chance(0.35)) {
      const lines = outputLines(random, this.#kind.logLines, size);
      lines.push(random.pick(this.#kind.passLines));
      this.#out.call(
        "Running the suite first.",
        this.#terminal(command),
        terminalResult(lines.join("\n"), 0),
      );
      return;
    }
    const failure = random.pick(this.#kind.failures);
    const lines = outputLines(random, this.#kind.logLines, size);
    lines.splice(random.int(lines.length + 1), 0, failure.line);
    const exit = random.chance(0.85) ? 1 : 2;
    this.#out.call(
      random.chance(0.5) ? "Running the suite first to see what fails." : "",
      this.#terminal(command),
      terminalResult(lines.join("\n"), exit),
    );
    this.#open = { command, failure, read: false, patched: false };
  }

  #workOnFailure(open: OpenFailure, maxOutput: number): void {
    const random = this.#out.random;
    const path = this.#path(open.failure.file);
    if (!open.read) {
      open.read = true;
      return this.#readFile(path, maxOutput);
    }
    if (!open.patched) {
      open.patched = true;
      return this.#patch(path, open.failure);
    }
    this.#open = undefined;
    const lines = outputLines(random, this.#kind.logLines, outputSize(random, maxOutput));
    if (random.chance(0.2)) {
      lines.push(open.failure.line);
      this.#out.call(
        `Re-running \`${open.command}\` to confirm the fix.`,
        this.#terminal(open.command),
        terminalResult(lines.join("\n"), 1),
      );
      return;
    }
    lines.push(random.pick(this.#kind.passLines));
    this.#out.call(
      `Re-running \`${open.command}\` to confirm the fix.`,
      this.#terminal(open.command),
      terminalResult(lines.join("\n"), 0),
    );
  }

  #readFile(path: string, maxOutput: number): void {
    const random = this.#out.random;
    const offset = random.chance(0.7) ? 1 : random.range(20, 300);
    const args: Record<string, unknown> = offset === 1 ? { path } : { path, offset, limit: 200 };
    const lines = outputLines(random, this.#kind.codeLines, outputSize(random, maxOutput), 0.03);
    const listing = numberedListing(lines, offset);
    const content = random.chance(0.2)
      ? JSON.stringify({ content: listing, path, total_lines: offset + lines.length + 40 })
      : listing;
    this.#out.call(
      random.chance(0.5) ? `The failure points at ${path}. Reading it.` : "",
      { tool: "read_file", args },
      content,
    );
  }

  #patch(path: string, failure: Failure): void {
    const random = this.#out.random;
    const spec: CallSpec = {
      tool: "patch",
      args: { mode: "replace", path, old_string: failure.before, new_string: failure.after },
    };
    const content = random.chance(0.1)
      ? JSON.stringify({ success: false, error: `Could not find old_string in ${path}` })
      : unifiedDiff(
        path.slice(this.#root.length + 1),
        random.range(3, 120),
        this.#kind.codeLines.slice(random.int(4)),
        failure.before,
        failure.after,
      );
    this.#out.call(`${failure.name} comes from ${path}; patching it.`, spec, content);
  }

  #search(maxOutput: number): void {
    const random = this.#out.random;
    const pattern = random.pick(["def parse", "load_config", "TODO", "getUser", "PORT", "unwrap"]);
    const path = random.chance(0.5) ? this.#root : this.#path(this.#kind.files[0]!.split("/")[0]!);
    const spec: CallSpec = { tool: "search_files", args: { pattern, target: "content", path } };
    const size = Math.min(outputSize(random, maxOutput), 4000);
    this.#out.call(
      "Searching for other callers before renaming anything.",
      spec,
      searchResult(
        random,
        pattern,
        this.#kind.files.map((f) => this.#path(f)),
        this.#kind.codeLines,
        size,
      ),
    );
  }

  #lint(maxOutput: number): void {
    const random = this.#out.random;
    const command = random.pick(this.#kind.lintCommands);
    const failed = random.chance(0.4);
    const lines = outputLines(random, this.#kind.logLines, outputSize(random, maxOutput) / 4);
    if (failed) lines.push(random.pick(this.#kind.failures).line);
    this.#out.call("", this.#terminal(command), terminalResult(lines.join("\n"), failed ? 1 : 0));
  }

  #background(maxOutput: number): void {
    const random = this.#out.random;
    const session = `proc_${random.hex(10)}`;
    this.#out.call(
      "Starting the server in the background and polling its output.",
      this.#terminal(this.#kind.devServerCommand, { background: true }),
      JSON.stringify({
        output: `Background process started: ${session} (pid ${random.range(2000, 60000)})`,
        session_id: session,
        status: "running",
      }),
    );
    const preview = outputLines(random, this.#kind.logLines, Math.min(800, maxOutput)).join("\n");
    const poll: CallSpec = { tool: "process", args: { action: "poll", session_id: session } };
    this.#out.call("", poll, JSON.stringify({ session_id: session, status: "running", preview }));
    const action = random.pick(["wait", "kill", "kill", "log"]);
    const finalSpec: CallSpec = { tool: "process", args: { action, session_id: session } };
    const final = action === "kill"
      ? { session_id: session, status: "killed", signal: "SIGKILL" }
      : action === "wait"
      ? {
        session_id: session,
        status: "exited",
        exit_code: random.pick([0, 0, 1]),
        output: preview,
      }
      : { session_id: session, status: "running", output: preview };
    this.#out.call("", finalSpec, JSON.stringify(final));
  }

  #guarded(): void {
    const random = this.#out.random;
    if (random.chance(0.5)) {
      const command = random.pick([
        `rm -rf ~/.cache/${this.#name} build/`,
        "rm -rf /",
        `chmod -R 777 ${this.#root}`,
      ]);
      this.#out.call(
        "Cleaning up the build artifacts.",
        this.#terminal(command),
        JSON.stringify({
          status: "blocked",
          error: `Command blocked by the safety policy: recursive change outside the workspace`,
        }),
      );
      return;
    }
    const command = random.pick([
      "sudo apt-get install -y libpq-dev",
      "git push --force origin main",
      "docker system prune -af",
    ]);
    this.#out.call(
      "The command needs approval, waiting for the user.",
      this.#terminal(command),
      JSON.stringify({
        status: "pending_approval",
        command,
        description: "dangerous command",
        message: "Waiting for the user to approve this command.",
      }),
    );
  }

  #hardFailure(maxOutput: number): void {
    const random = this.#out.random;
    const noise = () =>
      outputLines(random, this.#kind.logLines, outputSize(random, maxOutput) / 3).join("\n");
    const cases: (() => [string, string])[] = [
      () => [
        `${this.#kind.missingTool} --version`,
        terminalResult(`bash: ${this.#kind.missingTool}: command not found`, 127),
      ],
      () => [
        this.#kind.buildCommand,
        terminalResult(`${noise()}\nKilled`, 137, "Process killed (SIGKILL): out of memory"),
      ],
      () => [
        this.#testCommand(),
        terminalResult(noise(), -1, "Command timed out after 180 seconds"),
      ],
      () => ["cat /var/log/syslog", terminalResult("cat: /var/log/syslog: Permission denied", 1)],
      () => [
        "ls build/",
        terminalResult("ls: cannot access 'build/': No such file or directory", 2),
      ],
      () => [`./scripts/migrate.sh --dry-run`, terminalResult(noise(), undefined)],
      () => [`tail -f ${this.#root}/server.log`, terminalResult(noise(), 130, "Interrupted")],
      () => [`make -C ${this.#root} docs`, noise()],
    ];
    const [command, content] = random.pick(cases)();
    this.#out.call("", this.#terminal(command), content);
  }

  #executeCode(maxOutput: number): void {
    const random = this.#out.random;
    const code = random.pick([
      "import json\nrows = [json.loads(l) for l in open('data/sample.jsonl')]\nprint(len(rows))",
      "from statistics import mean\nprint(mean([3, 4, 2.5]))",
      "import csv\nprint(sum(1 for _ in csv.reader(open('data/users.csv'))) / 0)",
    ]);
    const failed = code.includes("/ 0");
    const output = failed
      ? 'Traceback (most recent call last):\n  File "<stdin>", line 2, in <module>\n' +
        "ZeroDivisionError: division by zero"
      : outputLines(random, ["rows: 1204", "mean: 3.1666666666666665", "ok"], maxOutput / 20)
        .join("\n");
    this.#out.call(
      "I'll write a quick script to verify the numbers.",
      { tool: "execute_code", args: { code } },
      JSON.stringify(
        failed
          ? { status: "error", output, error: "ZeroDivisionError: division by zero" }
          : { status: "success", output, tool_calls_made: 0, duration_seconds: 0.42 },
      ),
    );
  }

  #writeFile(maxOutput: number): void {
    const random = this.#out.random;
    const path = this.#path(random.pick(this.#kind.files));
    const content = outputLines(random, this.#kind.codeLines, outputSize(random, maxOutput), 0)
      .join("\n");
    this.#out.call(
      "",
      { tool: "write_file", args: { path, content } },
      JSON.stringify({ success: true, path, bytes_written: content.length }),
    );
  }

  #git(maxOutput: number): void {
    const random = this.#out.random;
    const files = this.#kind.files.slice(0, random.range(1, 4));
    const cases: [string, string][] = [
      ["git status --short", files.map((file) => ` M ${file}`).join("\n")],
      ["git diff --stat", `${files.map((f) => ` ${f} | 4 ++--`).join("\n")}\n`],
      [
        'git commit -am "Fix failing tests"',
        `[main ${random.hex(7)}] Fix failing tests\n ${files.length} files changed`,
      ],
      [
        "git log --oneline -5",
        outputLines(random, [`${random.hex(7)} wip`], maxOutput / 10).join("\n"),
      ],
    ];
    const [command, output] = random.pick(cases);
    this.#out.call(
      "Let me check git status before committing.",
      this.#terminal(command),
      terminalResult(output, 0),
    );
  }

  #parallelReads(maxOutput: number): void {
    const random = this.#out.random;
    const specs: CallSpec[] = [random.pick(this.#kind.files), random.pick(this.#kind.files)].map(
      (file) => ({ tool: "read_file", args: { path: this.#path(file) } }),
    );
    const calls = this.#out.assistant("Reading both files.", specs);
    calls.forEach((call, index) => {
      const lines = outputLines(random, this.#kind.codeLines, outputSize(random, maxOutput / 2), 0);
      this.#out.result(call, specs[index]!, numberedListing(lines, 1));
    });
  }

  #screenshot(): void {
    const random = this.#out.random;
    const spec: CallSpec = {
      tool: "vision_analyze",
      args: { image_url: `${this.#root}/screenshot.png`, question: "Does the page render?" },
    };
    const [call] = this.#out.assistant("", [spec]);
    if (call) {
      this.#out.result(call, spec, multimodalResult(random, "The page renders a login form."));
    }
  }

  #oddity(): void {
    const random = this.#out.random;
    const roll = random.int(3);
    if (roll === 0) {
      const spec: CallSpec = {
        tool: "terminal",
        args: {},
        rawArguments: `{"command": "${this.#kind.testCommand}`,
      };
      this.#out.call(
        "",
        spec,
        JSON.stringify({ error: "Invalid JSON in tool arguments", exit_code: null }),
      );
    } else if (roll === 1) {
      this.#out.orphanResult("terminal", terminalResult("stale result from a removed call", 0));
    } else {
      this.#out.assistant("Checking one more thing.", [this.#terminal("uname -a")]);
    }
  }
}
