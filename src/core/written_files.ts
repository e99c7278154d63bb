/**
 * Files people write — source code, configuration, documentation — told by their name. Reading
 * one shows what it says, not what a program printed as it ran: a config's `level: error` or a
 * document's `Error: …` is no error the session met.
 *
 * @module
 */

// Extensions of source code, configuration and documentation.
const WRITTEN_EXTENSIONS: ReadonlySet<string> = new Set([
  // source code
  "py",
  "pyi",
  "ipynb",
  "js",
  "mjs",
  "cjs",
  "jsx",
  "ts",
  "mts",
  "cts",
  "tsx",
  "go",
  "rs",
  "java",
  "kt",
  "kts",
  "scala",
  "groovy",
  "gradle",
  "c",
  "h",
  "cc",
  "cpp",
  "cxx",
  "hpp",
  "hh",
  "m",
  "mm",
  "cs",
  "fs",
  "vb",
  "swift",
  "rb",
  "php",
  "pl",
  "pm",
  "lua",
  "r",
  "jl",
  "dart",
  "ex",
  "exs",
  "erl",
  "hrl",
  "hs",
  "ml",
  "mli",
  "clj",
  "cljs",
  "zig",
  "nim",
  "sh",
  "bash",
  "zsh",
  "fish",
  "ps1",
  "sql",
  "proto",
  "graphql",
  "vue",
  "svelte",
  "html",
  "htm",
  "css",
  "scss",
  "sass",
  "less",
  "tf",
  // configuration
  "json",
  "jsonc",
  "json5",
  "yaml",
  "yml",
  "toml",
  "ini",
  "cfg",
  "conf",
  "properties",
  "env",
  "xml",
  "plist",
  "lock",
  "editorconfig",
  "gitignore",
  "dockerignore",
  // documentation
  "md",
  "mdx",
  "rst",
  "adoc",
  "tex",
]);
// Names of such files that carry no extension.
const WRITTEN_NAMES: ReadonlySet<string> = new Set([
  "dockerfile",
  "makefile",
  "gemfile",
  "rakefile",
  "procfile",
  "justfile",
  "vagrantfile",
]);

/**
 * Whether `path` names a file people write (source code, configuration, documentation) by its
 * extension or name; a log, a program's saved output or a file of unknown kind is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isWrittenFile } from "./written_files.ts";
 * assert.ok(isWrittenFile("src/app/config.YAML"));
 * assert.ok(isWrittenFile("deploy/Dockerfile"));
 * assert.ok(!isWrittenFile("logs/app.log"));
 * assert.ok(!isWrittenFile("/tmp/build-output"));
 * ```
 */
export function isWrittenFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.lastIndexOf(".");
  return dot === -1 ? WRITTEN_NAMES.has(name) : WRITTEN_EXTENSIONS.has(name.slice(dot + 1));
}
