import { command, message, or } from "@optique/core";
import { benchGoldenCommand, benchGoldenFlags } from "./_bench_golden.ts";
import { benchHeadToHeadCommand } from "./_bench_headtohead.ts";
import { benchProofsCommand } from "./_bench_proofs.ts";
import { benchRecallCommand } from "./_bench_recall.ts";
import { benchReplayCommand } from "./_bench_replay.ts";
import { benchSpeedCommand } from "./_bench_speed.ts";

/** `vcc bench`: proofs, golden outputs, speed and the head-to-head against the stock summary. */
export const benchCommand = command(
  "bench",
  or(
    benchProofsCommand,
    benchRecallCommand,
    benchReplayCommand,
    benchSpeedCommand,
    benchHeadToHeadCommand,
    benchGoldenCommand,
    benchGoldenFlags,
  ),
  {
    description: message`Benchmarks: proofs, recall, replay, golden outputs, speed, head-to-head`,
    footer:
      message`Results go to $XDG_CACHE_HOME/vcc (or ~/.cache/vcc) at mode 0600; the console shows counts, scores, ids, hashes and the diffs of generated golden windows, never text from stored sessions. Example: vcc bench golden --check`,
  },
);
