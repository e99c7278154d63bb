import { command, constant, map, message, object, option, optional } from "@optique/core";
import { argument } from "@optique/core/primitives";
import { choice, string } from "@optique/core/valueparser";
import { budgetTokens } from "./_budget_tokens.ts";
import { project } from "../core/mod.ts";
import { showCommand } from "../hermes/self_command.ts";
import { RuntimeFailure, UsageError } from "./_errors.ts";
import { readProjectInput } from "./_project_input.ts";
import { storedSession, withStore } from "./_store_access.ts";
import { assertHeaderFits } from "./_header_budget.ts";
import { printProjection } from "./_print_projection.ts";
import type { Runner } from "./_runner.ts";

/** `vcc project [FILE|-]`: projects a window read from a file or standard input. */
export const projectCommand = command(
  "project",
  map(
    object({
      kind: constant("project"),
      file: optional(argument(string({ metavar: "FILE" }), {
        description:
          message`JSON array, JSON Lines or {"messages": [...]} object; - or absent reads stdin`,
      })),
      sessionId: optional(option("--session-id", string({ metavar: "ID" }), {
        description: message`Hermes session id named in the log's recovery note`,
      })),
      previous: optional(option("--previous", string({ metavar: "FILE" }), {
        description: message`A previous projection to merge`,
      })),
      focus: optional(option("--focus", string({ metavar: "TOPIC" }), {
        description: message`Keep what matches this topic first when the budget forces a choice`,
      })),
      budgetTokens: optional(option("--budget-tokens", budgetTokens, {
        description: message`Size limit in tokens (body ≤ N × 4 characters)`,
      })),
      format: optional(option("--format", choice(["md", "json"]), {
        description: message`md (default): the body; json: the body and its stats`,
      })),
      db: optional(option("--db", string({ metavar: "PATH" }), {
        description:
          message`Hermes's state.db (read-only): read the window against its stored originals, as vcc serve does`,
      })),
    }),
    (args): Runner => async (out) => {
      const request = await readProjectInput(args);
      const sessionId = request.options.sessionId;
      if (args.db !== undefined && sessionId === undefined) {
        throw new UsageError(
          "--db needs the session id (--session-id, or session_id in the input)",
        );
      }
      const store = args.db === undefined
        ? request.store
        : { path: args.db, sessionId: sessionId as string };
      // Named on the command line or in the input, a store that cannot be read, or does not hold
      // the session, is an error, not a fallback: it is refused as `withStore` refuses it.
      if (store) {
        await withStore(store.path, (db, module) => storedSession(db, module, store.sessionId));
      }
      const { projectionInput, StoredWindowReader } = await import("../store/mod.ts");
      const input = projectionInput(
        { ...request, ...(store ? { store } : {}) },
        new StoredWindowReader(),
        showCommand,
      );
      if (input.problem !== undefined) throw new RuntimeFailure(input.problem);
      const started = performance.now();
      const projection = project(input.window, input.options);
      assertHeaderFits(
        projection,
        (budgetTokens) => project(input.window, { ...input.options, budgetTokens }).body,
      );
      printProjection(out, projection, args.format ?? "md", performance.now() - started);
      return 0;
    },
  ),
  {
    description: message`Project a Hermes window into the Markdown summary`,
    footer: message`Example: vcc project window.json --session-id s1 --budget-tokens 2000`,
  },
);
