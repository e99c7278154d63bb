"""The catalogue of Hermes tool actions a story is composed of. Each entry builds the steps of one
small episode (a background job and its process calls, a git session, a refused command, …) from
the story's random source and a number that keeps its commands apart from other episodes'."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from project import BUG, DATA_FILES, FIX, MODULE, data_file
from session_script import PYTEST
from story import (
    ANSWERED,
    FAILED,
    JOB,
    KILLED,
    NO_EXIT,
    REFUSED,
    STARTED,
    SUCCEEDED,
    TIMED_OUT,
    WORKED,
    Step,
)
from story_project import (
    EXIT_SCRIPT,
    INVOICE_MODULE,
    INVOICE_TEST,
    LEDGER_SCRIPT,
    PARSE_SCRIPT,
    REPORT_SCRIPT,
)

SKILL = "ledger-audit"
"""The skill the sandboxed Hermes home holds (``story_run.py`` writes it)."""
DENIED_PREFIX = "git push --force"
"""Commands Hermes's ``approvals.deny`` rule refuses, with or without ``--yolo``."""
CHILD_MARKER = "[child task "
"""Opens a delegated goal, so the model tells its child's requests from the parent's."""


def command(
    text: str, expect: str, exit_code: int | None, kept: str | None = None, **arguments: object
) -> Step:
    """A ``terminal`` call of ``text``, with its further arguments."""
    return Step("terminal", {"command": text, **arguments}, expect, exit_code, kept)


def fix_tally_bug(rng: random.Random, n: int) -> list[Step]:
    """The live session's fixing part: pytest fails, the module is read and searched, parsing a
    document fails, the bug is patched, pytest passes."""
    return [
        command(PYTEST, FAILED, 1),
        Step("read_file", {"path": MODULE}, WORKED),
        Step("search_files", {"pattern": "def mean", "path": "tally"}, WORKED),
        command(f"python3 {PARSE_SCRIPT}", FAILED, 1),
        Step(
            "patch",
            {
                "mode": "replace",
                "path": MODULE,
                "old_string": BUG.strip(),
                "new_string": FIX.strip(),
            },
            WORKED,
        ),
        command(PYTEST, SUCCEEDED, 0),
    ]


def background_job(rng: random.Random, n: int) -> list[Step]:
    """A job that ends by itself with a chosen status, waited for, then polled (which reports
    its status) or read (a log says only that it ended)."""
    status = rng.choice((0, 3))
    outcome = SUCCEEDED if status == 0 else FAILED
    check = rng.choice(("poll", "log"))
    checked = (outcome, status) if check == "poll" else (NO_EXIT, None)
    return [
        command(f"sleep 1; echo build {n} done; exit {status}", STARTED, None, background=True),
        Step("process", {"action": "wait", "session_id": JOB, "timeout": 20}, outcome, status),
        Step("process", {"action": check, "session_id": JOB}, *checked),
    ]


def killed_job(rng: random.Random, n: int) -> list[Step]:
    """A job that would run for a minute, killed and then polled."""
    return [
        command(f"sleep 60; echo watcher {n}", STARTED, None, background=True, workdir="tally"),
        Step("process", {"action": "kill", "session_id": JOB}, KILLED),
        Step("process", {"action": "poll", "session_id": JOB}, KILLED),
    ]


def failing_commands(rng: random.Random, n: int) -> list[Step]:
    """Commands failing with different exit codes, one of them printing an exception."""
    choices = [
        command(f"ls data/missing_{n}", FAILED, 2),
        command(f"nosuchtool_{n} --version", FAILED, 127),
        command(f"python3 {EXIT_SCRIPT} {n % 5 + 4}", FAILED, n % 5 + 4),
        command(f"python3 {REPORT_SCRIPT} --region=void --run={n}", FAILED, 1),
    ]
    return rng.sample(choices, 2)


def expected_exits(rng: random.Random, n: int) -> list[Step]:
    """Non-zero exits that answer a question: no match, files differ, a test is false."""
    return [
        command(f"grep -n absent_{n} {MODULE}", ANSWERED, 1),
        command(f"diff {MODULE} {INVOICE_MODULE}", ANSWERED, 1),
        command(f"test -f notes/missing_{n}.txt", ANSWERED, 1),
    ][: rng.randint(2, 3)]


def timeout(rng: random.Random, n: int) -> list[Step]:
    """A command that outlives its timeout."""
    return [command(f"sleep 8 && echo slow {n}", TIMED_OUT, 124, timeout=1)]


def long_commands(rng: random.Random, n: int) -> list[Step]:
    """Report runs whose long command lines differ only at their end; one fails, one is retried
    and the last succeeds."""
    stem = (
        f"python3 {REPORT_SCRIPT} --format=table --columns=account,posted,status,entry,ledger "
        f"--sort=posted --limit=500 --currency=units --ledger={data_file(n % DATA_FILES + 1)} "
        "--title=quarterly-settlement-overview"
    )
    return [
        command(f"{stem} --region=south", FAILED, 3),
        command(f"{stem} --region=south", FAILED, 3),
        command(f"{stem} --region=north", SUCCEEDED, 0),
        command(f"{stem} --region=east", SUCCEEDED, 0),
    ]


def file_work(rng: random.Random, n: int) -> list[Step]:
    """A note written, read, searched and patched (a V4A multi-file patch where offered)."""
    note, extra = f"notes/plan_{n}.md", f"notes/extra_{n}.md"
    v4a = (
        f"*** Begin Patch\n*** Update File: {note}\n@@\n # Plan {n}\n-- read the ledgers\n"
        f"+- read the ledgers (done)\n*** Add File: {extra}\n+extra notes {n}\n*** End Patch"
    )
    return [
        Step("write_file", {"path": note, "content": f"# Plan {n}\n- read the ledgers\n"}, WORKED),
        Step("read_file", {"path": note}, WORKED),
        Step("search_files", {"pattern": f"Plan {n}", "path": "notes"}, WORKED),
        Step("patch", {"mode": "patch", "patch": v4a}, WORKED),
    ]


def invoice_work(rng: random.Random, n: int) -> list[Step]:
    """Work on the invoice module, which a focused ``/compress`` names."""
    return [
        Step("read_file", {"path": INVOICE_MODULE}, WORKED),
        command(f"python -m pytest -q {INVOICE_TEST}", SUCCEEDED, 0),
        command(f"grep -n invoice_total {INVOICE_MODULE}", SUCCEEDED, 0),
    ]


def execute_code(rng: random.Random, n: int) -> list[Step]:
    """Code that raises, then code that succeeds."""
    return [
        Step(
            "execute_code",
            {"code": f"raise ValueError('ledger {n} is unbalanced')"},
            FAILED,
            1,
            approval=True,
        ),
        Step("execute_code", {"code": f"print(sum(range({n + 10})))"}, SUCCEEDED, 0, approval=True),
    ]


def delegate(rng: random.Random, n: int) -> list[Step]:
    """A child agent asked to count a module's lines; its report comes back as the result."""
    goal = f"{CHILD_MARKER}{n}] Count the lines of {MODULE} and report the number."
    return [Step("delegate_task", {"tasks": [{"goal": goal}]}, WORKED, kept="child")]


def memory_and_todo(rng: random.Random, n: int) -> list[Step]:
    """A memory entry, a task list and a skill read."""
    todos = [
        {"id": "1", "content": f"settle ledger batch {n}", "status": "in_progress"},
        {"id": "2", "content": "report the totals", "status": "pending"},
    ]
    return [
        Step(
            "memory",
            {"action": "add", "target": "memory", "content": f"batch {n} settles in units"},
            WORKED,
        ),
        Step("todo", {"todos": todos}, WORKED),
        Step("skill_view", {"name": SKILL}, WORKED),
    ]


def git_session(rng: random.Random, n: int) -> list[Step]:
    """A repository with a commit whose hash is printed, a patch that does not apply and a merge
    that conflicts, then is aborted."""
    who = "git -c user.email=dev@example.invalid -c user.name=dev"
    return [
        command(
            f"git init -q -b main && git add -A && {who} commit -qm 'tally {n}' && "
            "git log --format=%H -1",
            SUCCEEDED,
            0,
            kept="commit",
        ),
        command(f"git apply patches/fix_{n}.patch", FAILED, 128),
        command(
            f"git checkout -qb feature_{n} && echo '# feature' >> tally/__init__.py && "
            f"{who} commit -qam feature && git checkout -q main && "
            f"echo '# main' >> tally/__init__.py && {who} commit -qam main && "
            f"git merge feature_{n}",
            FAILED,
            1,
        ),
        command("git merge --abort && git status --short", SUCCEEDED, 0),
    ]


def refused(rng: random.Random, n: int) -> list[Step]:
    """Calls Hermes refuses: one by its deny rule, one it asks about and nobody approves."""
    return [
        command(f"{DENIED_PREFIX} origin feature_{n}", REFUSED, None),
        command(f"rm -rf build_{n}", REFUSED, None),
    ]


def persisted_output(rng: random.Random, n: int) -> list[Step]:
    """Output so large that Hermes saves it to a file and shows a preview."""
    return [command(f"seq 1 {40000 + n}", SUCCEEDED, 0)]


def filler(index: int) -> Step:
    """One large output: a generated ledger printed, or a data file read."""
    if index % 2 == 0 or index // 2 >= DATA_FILES:
        return command(f"python3 {LEDGER_SCRIPT} {index}", SUCCEEDED, 0)
    return Step("read_file", {"path": data_file(index // 2 + 1), "limit": 2000}, WORKED)


@dataclass(frozen=True)
class Episode:
    """A catalogue entry: its name, how a user asks for it, how it builds its steps, whether it
    refuses calls (such stories run without ``--yolo``) and whether it prints facts to keep."""

    name: str
    request: str
    """How a user asks for it, as part of a turn's request."""
    build: Callable[[random.Random, int], list[Step]]
    refuses: bool = False
    keeps: bool = False
    """Whether its steps print a fact every later projection must keep (``Step.kept``)."""


CATALOGUE = (
    Episode("background job", "run a build in the background and wait for it", background_job),
    Episode("killed job", "start the ledger watcher and stop it again", killed_job),
    Episode("failing commands", "check which ledger tools are missing", failing_commands),
    Episode("expected exits", "compare the modules and look for leftovers", expected_exits),
    Episode("timeout", "try the slow settlement check", timeout),
    Episode("long commands", "run the quarterly settlement report for each region", long_commands),
    Episode("file work", "write a plan into notes and update it", file_work),
    Episode("invoice work", "check the invoice totals in billing", invoice_work),
    Episode("execute code", "balance a ledger with a short script", execute_code),
    Episode("delegate", "have a helper count the lines of the stats module", delegate, keeps=True),
    Episode(
        "memory and todo",
        "note the batch, track the tasks and read the ledger-audit skill",
        memory_and_todo,
    ),
    Episode("git", "put the project under git and try merging a feature", git_session, keeps=True),
    Episode("refused", "push the feature and clean the build directory", refused, refuses=True),
    Episode("persisted output", "print the full entry sequence", persisted_output),
)
"""Every episode a story may hold; ``fix_tally_bug`` opens each story."""

FIX_TALLY_BUG = Episode(
    "fix the tally bug",
    "the test suite fails: find the bug in tally/stats.py and make pytest pass",
    fix_tally_bug,
)
"""The live session's own fixing steps; every story opens with them."""
