/**
 * Commands shortened to fit a line, on the commands of generated sessions, of the agent traces in
 * `../shared/corpus` when present, and of generated command lines. The oracle for "the shown text
 * stands for the command" is the recall bench's display matcher, which knows nothing of how the
 * shortening chooses.
 */
import assert from "node:assert/strict";
import { shortenCommand } from "../../src/core/command_display.ts";
import { showsText } from "../../src/bench/recall/display_match.ts";
import { generateWindow, SeededRandom } from "../../src/sample/mod.ts";

const WIDTHS = [24, 42, 60, 90, 160];
const CORPORA = ["../shared/corpus/swe-agent", "../shared/corpus/mini-swe-agent"];

/** The `command` of every terminal call in `rows`. */
function commandsOf(rows: readonly unknown[]): string[] {
  const found: string[] = [];
  for (const row of rows as { tool_calls?: { function?: { arguments?: unknown } }[] }[]) {
    for (const call of row.tool_calls ?? []) {
      try {
        const command = JSON.parse(String(call.function?.arguments)).command;
        if (typeof command === "string") found.push(command.replace(/\s+/g, " ").trim());
      } catch {
        // Arguments that are not JSON name no command.
      }
    }
  }
  return found;
}

function generatedLines(count: number): string[] {
  const random = new SeededRandom(7);
  const programs = ["python3 -m pytest", "git commit", "docker compose", "grep -rn", "npx jest"];
  const words = ["-q", "--rm", "-f", "src/app/very/long/directory/name/file_name.py", "'a b c'"];
  return Array.from({ length: count }, () => {
    const parts = [random.pick(programs)];
    for (let index = random.range(1, 12); index > 0; index--) parts.push(random.pick(words));
    if (random.chance(0.4)) parts.unshift(`cd /srv/${random.hex(6)} &&`);
    if (random.chance(0.3)) parts.push("| tail -n 20");
    return parts.join(" ");
  });
}

function allCommands(): string[] {
  const commands = [1, 2, 3, 5, 8].flatMap((seed) =>
    commandsOf(generateWindow({ seed, targetTokens: 20_000 }))
  );
  for (const dir of CORPORA) {
    try {
      for (const entry of Deno.readDirSync(dir)) {
        if (!entry.name.endsWith(".json")) continue;
        const data = JSON.parse(Deno.readTextFileSync(`${dir}/${entry.name}`));
        commands.push(...commandsOf(data.messages ?? data));
      }
    } catch {
      // A checkout without the corpus tests the generated commands only.
    }
  }
  return [...new Set([...commands, ...generatedLines(300)])];
}

Deno.test("shortenCommand() fits the width and shows what stands for the command", () => {
  const commands = allCommands();
  assert.ok(commands.length > 300, `${commands.length} commands`);
  const problems: string[] = [];
  for (const command of commands) {
    for (const width of WIDTHS) {
      const shown = shortenCommand(command, width);
      if (shown.length > width) problems.push(`${width}: too long: ${shown}`);
      if (command.length <= width && shown !== command) problems.push(`${width}: changed ${shown}`);
      // Each word shortened inside shows its start and end, so read them as cuts too.
      const asCuts = shown.replace(/(\S)…(\S)/g, "$1 … $2");
      if (!showsText(asCuts, command)) problems.push(`${width}: not the command: ${shown}`);
    }
  }
  assert.deepEqual(problems.slice(0, 10), []);
});

Deno.test("shortenCommand() shortens a shortened display again without doubling its gaps", () => {
  // A previous summary's lines come back shortened; a narrower line shortens them once more.
  const problems: string[] = [];
  for (const command of allCommands()) {
    for (const [first, second] of [[160, 60], [90, 42], [60, 24], [160, 42]] as const) {
      const again = shortenCommand(shortenCommand(command, first), second);
      if (/…\s+…/.test(again)) problems.push(`${first}→${second}: ${again}`);
      if (again.length > second) problems.push(`${first}→${second}: too long: ${again}`);
    }
  }
  assert.deepEqual(problems.slice(0, 10), []);
});

Deno.test("shortenCommand() tells apart commands that differ only in the option they end with", () => {
  const random = new SeededRandom(11);
  const problems: string[] = [];
  for (let family = 0; family < 40; family++) {
    const options = Array.from(
      { length: random.range(3, 9) },
      () => `--${random.pick(["format", "sort", "limit", "title", "columns"])}=${random.hex(6)}`,
    );
    const base = `python3 scripts/${random.hex(4)}.py ${options.join(" ")}`;
    const name = random.pick(["--region", "--project", "--shard", "-k"]);
    const lasts = ["north", "east", "south", "west"].map((value) =>
      name === "-k" ? `-k test_${value}` : `${name}=${value}`
    );
    for (const width of [42, 60]) {
      const shown = lasts.map((last) => shortenCommand(`${base} ${last}`, width));
      if (new Set(shown).size !== shown.length) problems.push(`${width}: ${shown.join(" | ")}`);
    }
  }
  assert.deepEqual(problems.slice(0, 5), []);
});

Deno.test("shortenCommand() keeps the program and what it works on before options", () => {
  const docker = "docker compose -f deploy/compose.e2e.yml run --rm --service-ports playwright " +
    "npx playwright test --project=chromium";
  const shown = shortenCommand(docker, 60);
  assert.match(shown, /^docker compose /);
  assert.match(shown, /playwright/);
  assert.doesNotMatch(shown, /--rm|--service-ports/);
  assert.equal(
    shortenCommand("cd … && python3 -m pytest -q tests/test_stats.py", 44),
    "… && python3 -m pytest … tests/test_stats.py",
  );
  // The program survives a long path word: the word is shortened inside, never dropped whole.
  const long = `python3 /home/dev/${"deep/".repeat(12)}tools/report.py --all`;
  assert.match(shortenCommand(long, 40), /^python3 \/home\/…\/report\.py/);
});

Deno.test("shortenCommand() keeps what a later step runs before the directory a cd changes to", () => {
  const line = "pip install pytest -q && cd /testbed && " +
    "python -m pytest tests/test_grid.py::test_rectilinear_grid -x | tail -50";
  for (const width of [56, 60]) {
    assert.equal(
      shortenCommand(line, width),
      "pip install pytest … && python -m pytest … | tail -50",
    );
  }
  // With room for more, the directory comes back in its place.
  assert.equal(
    shortenCommand(line, 70),
    "pip install pytest … && cd /testbed && python -m pytest … | tail -50",
  );
});

/**
 * Command lines of several steps, each word of them once (so where a shown word stands in the
 * line is known): a step is a program and a few arguments, the steps joined by shell operators.
 */
function multiStepLines(count: number): string[] {
  const random = new SeededRandom(11);
  const programs = ["git", "grep", "python3", "echo", "make", "sed", "docker", "npm", "cargo"];
  const operators = ["&&", "|", ";", "||"];
  return Array.from({ length: count }, (_, line) => {
    const chosen = [...programs].sort(() => random.next() - 0.5).slice(0, random.range(2, 6));
    return chosen.map((program, step) => {
      const args = Array.from(
        { length: random.range(0, 4) },
        (_, index) =>
          random.chance(0.3) ? `-${"abcdefgh"[index]}${step}` : `w${line}s${step}a${index}`,
      );
      return [step === 0 ? "" : random.pick(operators), program, ...args].join(" ").trim();
    }).join(" ");
  });
}

/** The words of a line, each operator joined to the program after it (`&& git`). */
function stepWords(line: string): string[] {
  const words: string[] = [];
  for (const word of line.split(" ")) {
    if (OPERATORS.includes(words.at(-1) ?? "")) words.push(`${words.pop()} ${word}`);
    else words.push(word);
  }
  return words;
}
const OPERATORS = ["&&", "|", ";", "||"];

Deno.test("shortenCommand() shows a later step's words only with the word that starts the step", () => {
  for (const line of multiStepLines(300)) {
    const words = stepWords(line);
    // The index of the word that starts each word's step: its program, with the operator before.
    const heads: number[] = [];
    words.forEach((word, index) => {
      const starts = index === 0 || OPERATORS.some((operator) => word.startsWith(`${operator} `));
      heads.push(starts ? index : heads[index - 1] as number);
    });
    for (const width of [20, 30, 40, 50, 60, 80]) {
      const display = shortenCommand(line, width);
      // Each shown word is found in the line after the one before it.
      const at: number[] = [];
      for (const token of stepWords(display)) {
        if (token === "…") continue;
        const [before, after = ""] = token.split("…");
        const from = (at.at(-1) ?? -1) + 1;
        const found = words.findIndex((word, index) =>
          index >= from &&
          (token.includes("…")
            ? word.startsWith(before as string) && word.endsWith(after)
            : word === token)
        );
        assert.ok(found !== -1, `${JSON.stringify(token)} of ${JSON.stringify(display)}`);
        at.push(found);
      }
      const shown = new Set(at);
      for (const index of at) {
        assert.ok(
          shown.has(heads[index] as number),
          `${JSON.stringify(words[index])} without its step's program in ${
            JSON.stringify(display)
          } (of ${JSON.stringify(line)})`,
        );
      }
    }
  }
});

Deno.test("shortenCommand() shows an in-place edit's, a forced removal's or an index-only change's mode and its files", () => {
  const random = new SeededRandom(16);
  const files = ["pvlib/temperature.py", "src/a.py", "tests/test_io.py", "build"];
  for (let trial = 0; trial < 200; trial++) {
    const file = random.pick(files);
    const script = `s/${random.hex(random.range(20, 90))}/${random.hex(random.range(20, 90))}/g`;
    const [program, mode, line] = random.pick(
      [
        ["sed", "-i", `sed -i "${script}" ${file}`],
        ["sed", "-i.bak", `cd /srv/app && sed -i.bak -e '${script}' ${file}`],
        ["perl", "-pi", `perl -pi -e '${script}' ${file}`],
        ["rm", "-rf", `rm -rf ${file} ${random.hex(30)}/${random.hex(30)}`],
        // Without its mode, a restore of the index reads as one that discards the work.
        ["git restore", "--staged", `git restore --staged ${random.hex(12)}.env ${file}`],
        ["git rm", "--cached", `git rm -r --cached ${file}`],
      ] as const,
    );
    // Room for the program, its mode and the file, with gaps around them (and `… && ` before
    // them after a cd), and no less than the file's length over 0.6 (a word longer than that
    // share of the width is shortened inside).
    const lead = line.startsWith("cd ") ? "… && ".length : 0;
    const width = Math.max(
      lead + program.length + mode.length + file.length + random.range(8, 40),
      Math.ceil(file.length / 0.6),
    );
    const shown = shortenCommand(line, width);
    assert.ok(shown.length <= width, shown);
    // The mode is shown after the program, before the file.
    const at = shown.indexOf(`${program} `);
    const modeAt = shown.indexOf(` ${mode} `, at);
    assert.ok(at !== -1 && modeAt !== -1 && modeAt < shown.indexOf(file, at), `${line} → ${shown}`);
    assert.ok(shown.includes(file), `${line} → ${shown}`);
  }
});

Deno.test("shortenCommand() keeps a change to the projection's root (`cd …`) before later steps", () => {
  const random = new SeededRandom(23);
  const programs = ["cargo test", "git add", "npx jest", "python3 -m pytest", "make -C build"];
  const files = ["src/ledger.rs", "packages/api/orders.test.ts", "tests/test_stats.py"];
  // Later steps whose last word is an option, so the line's last word is no subject.
  const later = ["| tail -5", "| head -n 20", "| grep -v warn -c", "2>&1 | tee -a log.txt -p"];
  for (let trial = 0; trial < 200; trial++) {
    const program = random.pick(programs);
    const steps = Array.from({ length: random.range(1, 3) }, () => random.pick(later));
    const line = `cd … && ${program} -q ${random.pick(files)} ${steps.join(" ")}`;
    // Room for the directory and the program, and a few characters more.
    const width = `cd … && ${program} …`.length + random.int(8);
    const shown = shortenCommand(line, width);
    assert.ok(shown.startsWith(`cd … && ${program.split(" ")[0]} `), `${width}: ${shown}`);
    assert.ok(shown.length <= width, `${width}: ${shown}`);
  }
});

Deno.test("shortenCommand() keeps the program a setting of the environment comes before", () => {
  const random = new SeededRandom(43);
  const settings = [
    "GIT_EDITOR=true",
    'RUSTFLAGS="-C target-cpu=x86-64-v3"',
    "CI=1",
    "NODE_ENV=test",
  ];
  const programs = [
    "git rebase --continue",
    "cargo build --release",
    "npx jest --ci",
    "make -j8 all",
  ];
  for (let trial = 0; trial < 200; trial++) {
    const program = random.pick(programs);
    const set = Array.from({ length: random.range(1, 3) }, () => random.pick(settings));
    const step = `${set.join(" ")} ${program} ${random.pick(["", "src/a.rs", "--verbose"])}`.trim();
    const line = random.chance(0.5) ? step : `cd … && ${step}`;
    const width = random.range(24, 60);
    const shown = shortenCommand(line, width);
    if (line.length <= width) continue;
    const name = program.split(" ")[0] as string;
    assert.match(shown, new RegExp(`(?:^| )${name}(?: |$)`), `${width}: ${shown}`);
    assert.ok(shown.length <= width, `${width}: ${shown}`);
  }
});

Deno.test("shortenCommand() shows an option that names what the program works on before switches", () => {
  const random = new SeededRandom(47);
  const programs = [
    "mvn -B test",
    "terraform plan",
    "npx playwright test",
    "go test ./...",
    "helm diff",
  ];
  const naming = ["-Dtest=", "-target=module.", "--project=", "--namespace=", "--filter="];
  const switches = ["-q", "--rm", "-B", "--no-color", "-x", "-count=1", "-DfailIfNoTests=false"];
  const problems: string[] = [];
  let shortened = 0;
  for (let trial = 0; trial < 300; trial++) {
    const program = random.pick(programs);
    const option = `${random.pick(naming)}${random.pick(["Order", "cache", "chrome", "ledger"])}${
      random.hex(4)
    }`;
    const before = Array.from({ length: random.range(0, 4) }, () => random.pick(switches));
    const after = Array.from({ length: random.range(1, 4) }, () => random.pick(switches));
    const line = [program, ...before, option, ...after].join(" ");
    // Room for the program, the option and the gaps around them, and a few characters more (and
    // for the option whole: a word longer than 60% of the width is shortened inside).
    const width = Math.max(
      `${program} … ${option} …`.length + random.int(6),
      Math.ceil(option.length / 0.6),
    );
    if (width >= line.length) continue;
    shortened++;
    const shown = shortenCommand(line, width);
    if (shown.length > width) problems.push(`${width}: too long: ${shown}`);
    if (!shown.includes(option)) problems.push(`${width}: ${line} → ${shown}`);
    // A switch, or an option whose value names nothing, shows only once every naming word does.
    const shownSwitch = switches.find((word) => shown.split(" ").slice(0, -1).includes(word));
    if (shownSwitch !== undefined) problems.push(`${width}: ${shownSwitch} in ${shown}`);
  }
  assert.deepEqual(problems.slice(0, 5), []);
  assert.ok(shortened > 150, `${shortened} lines shortened`);
});

Deno.test("shortenCommand() shows an option whole or not at all unless it ends the line", () => {
  const random = new SeededRandom(53);
  const problems: string[] = [];
  for (let trial = 0; trial < 300; trial++) {
    const options = Array.from(
      { length: random.range(1, 5) },
      () => `--${random.pick(["project", "filter", "namespace", "target"])}=${random.hex(8)}`,
    );
    const line = `npx runner ${random.pick(["test", "build"])} ${options.join(" ")} src/${
      random.hex(6)
    }.ts`;
    const shown = shortenCommand(line, random.range(24, line.length));
    for (const word of shown.split(" ")) {
      if (word.startsWith("--") && !options.includes(word)) problems.push(`${line} → ${shown}`);
    }
  }
  assert.deepEqual(problems.slice(0, 5), []);
});

Deno.test("shortenCommand() shows every program a line runs before the first program's other words", () => {
  for (const line of multiStepLines(300)) {
    const words = stepWords(line);
    const starts = words.filter((word, index) =>
      index === 0 || OPERATORS.some((operator) => word.startsWith(`${operator} `))
    );
    // What is kept before later programs: the first program, its first word that is no option,
    // and the line's last word; each with a gap beside it.
    const subject = words.slice(1).find((word) => !word.startsWith("-") && !starts.includes(word));
    const last = words.at(-1) as string;
    const skeleton = [...starts, subject, last].filter((word) => word !== undefined)
      .join(" … ");
    for (const slack of [0, 3, 9]) {
      const shown = stepWords(shortenCommand(line, skeleton.length + 2 + slack));
      for (const start of starts) {
        assert.ok(shown.includes(start), `${start} of ${JSON.stringify(line)}: ${shown.join(" ")}`);
      }
    }
  }
});

Deno.test("shortenCommand() cuts inside a long word only, keeping half of it, and no option before the last", () => {
  const random = new SeededRandom(61);
  const problems: string[] = [];
  for (let trial = 0; trial < 400; trial++) {
    const words = Array.from({ length: random.range(2, 7) }, () =>
      random.pick([
        `'${random.hex(random.range(3, 10))}'`,
        `-p no:${random.hex(random.range(4, 12))}`,
        `--filter='${random.hex(random.range(4, 12))}.*'`,
        `src/${random.hex(random.range(2, 20))}.py`,
        random.hex(random.range(14, 30)),
      ]));
    const line = `${random.pick(["pytest", "cargo test", "ctest -R"])} ${words.join(" ")}`;
    const whole = line.split(" ");
    const shown = shortenCommand(line, random.range(16, line.length));
    for (const word of shown.split(" ")) {
      if (word === "…" || !word.includes("…")) continue;
      // Cut right from one of the words it may be cut from: a long one, no option but the one
      // that ends the line, keeping half of it or as much as a long word is cut to.
      const [head = "", tail = ""] = word.split("…");
      const cutRight = whole.some((from) =>
        from.startsWith(head) && from.endsWith(tail) && from.length >= 14 &&
        (!from.startsWith("-") || from === whole.at(-1)) &&
        word.length >= Math.min(Math.ceil(from.length / 2), 14)
      );
      if (!cutRight) problems.push(`${line} → ${shown}`);
    }
  }
  assert.deepEqual(problems.slice(0, 5), []);
});

Deno.test("shortenCommand() shows what a later step works on before the first program's other words", () => {
  const random = new SeededRandom(67);
  for (let trial = 0; trial < 100; trial++) {
    const files = Array.from({ length: random.range(3, 8) }, () => `src/${random.hex(8)}.py`);
    const later = random.pick(["commit", "push", "merge", "stash"]);
    const line = `git add ${files.join(" ")} && git ${later} -q`;
    // Room for the first step's program and subject, the later step's, and the gaps.
    const width = `git add ${files[0]} … && git ${later} …`.length + random.range(0, 12);
    const shown = shortenCommand(line, width);
    assert.ok(shown.includes(`&& git ${later}`), `${width}: ${shown}`);
  }
});
