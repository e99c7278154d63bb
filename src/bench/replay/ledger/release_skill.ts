/**
 * The `ledger-release` skill installed in Hermes's home: the team's release checklist, long
 * enough (over 5,000 characters) that Hermes marks it for reloading when it prunes the result.
 *
 * @module
 */
import type { LedgerValues } from "./values.ts";

/** The skill's name, as `skill_view` takes it. */
export const RELEASE_SKILL = "ledger-release";

/** Where the skill lives below Hermes's `skills/` directory. */
export const RELEASE_SKILL_PATH = `ops/${RELEASE_SKILL}/SKILL.md`;

const CHECKS = [
  "Confirm the nightly sync of the last three nights finished with exit status 0 and read each " +
  "night's log for ERROR, FATAL, CRITICAL, PANIC and FAIL lines; exit status 0 alone proves nothing.",
  "Run the full test suite on a clean checkout with the release's Python; a flaky test blocks the " +
  "release until it is understood.",
  "Compare config/staging.toml with config/prod.toml and explain every difference in the release " +
  "notes; pool sizes and timeouts differ on purpose.",
  "Check that every migration the code expects is applied on staging with tools/check_schema.py " +
  "before the wheel is built.",
  "Build the wheel into dist/ and install it into a fresh virtual environment; import ledger and " +
  "run python -m ledger.sync --help.",
  "Replay the quarantined batches of every shard that had an incident since the last release and " +
  "attach the replay report.",
  "Open the pull request against the release branch, never against main, and ask the on-call " +
  "engineer of the week for the review.",
  "Tag the release only after CI is green on the release branch; a red run on the branch is " +
  "investigated first, even when it looks unrelated.",
];

/** The skill's `SKILL.md`. */
export function releaseSkill(values: LedgerValues): string {
  const steps = CHECKS.flatMap((check, index) => [
    `## Step ${index + 1}`,
    "",
    check,
    "",
    "Record the outcome in the release ticket with the command you ran, its exit status and the " +
    "lines that matter. If the step fails, stop: do not skip ahead, and do not re-run the step " +
    "until the cause is written down. Steps are done in order; each depends on the ones before.",
    "",
    "When a step is blocked by something outside the team (a database the platform team owns, an " +
    "upstream outage, a missing credential), say so in the ticket with the name of whoever can " +
    "unblock it, and hand the release to the next on-call engineer rather than working around it.",
    "",
  ]);
  return [
    "---",
    `name: ${RELEASE_SKILL}`,
    "description: How the ledger team cuts a ledger-svc release, step by step.",
    "---",
    "",
    "# Cutting a ledger-svc release",
    "",
    `Releases ship from the release branches (release/2.x, currently wheel ${values.wheelVersion} ` +
    "line). Work through every step; the checklist exists because each step once went wrong.",
    "",
    ...steps,
    "## After the release",
    "",
    "Announce it in the ledger channel with the tag, the wheel's hash and the replay report. Keep " +
    "the release ticket open for one night and close it after the next nightly sync ran clean.",
    "",
  ].join("\n");
}
