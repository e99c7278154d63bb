import type { Projection, ProjectOptions } from "./types.ts";

/** TEMPORARY placeholder while the projector is written. */
export function project(window: unknown, options: ProjectOptions = {}): Projection {
  const body = `## Historical Task Snapshot\n(placeholder ${
    Array.isArray(window) ? window.length : 0
  })\n`;
  const budgetChars = (options.budgetTokens ?? 2000) * 4;
  return {
    body,
    stats: {
      inputMessages: Array.isArray(window) ? window.length : 0,
      skippedMessages: 0,
      invalidArguments: 0,
      requests: 0,
      commands: 0,
      files: 0,
      errors: 0,
      errorNames: 0,
      blocked: 0,
      fixes: 0,
      logLines: 0,
      omitted: {
        requests: 0,
        files: 0,
        commands: 0,
        blocked: 0,
        fixes: 0,
        errorNames: 0,
        logLines: 0,
      },
      merged: false,
      chars: body.length,
      budgetChars,
    },
  };
}
