import { join } from "node:path";
import { project } from "../core/mod.ts";
import type { ProofWindow } from "./proofs/mod.ts";
import { unifiedDiff } from "./_line_diff.ts";
import { writePrivateFile } from "./private_files.ts";
import { sha256Hex } from "./sha256.ts";
import type { WindowSpec } from "./window_spec.ts";

/** One frozen window: how to get its input back, and the hash of the output it must produce. */
export interface GoldenEntry {
  readonly id: string;
  /** Generator parameters (generated windows); absent for windows frozen from a database. */
  readonly spec?: WindowSpec;
  /** File holding the frozen input, relative to the manifest (windows from a database). */
  readonly input?: string;
  /** SHA-256 of the input rows' JSON, to tell a changed input from a changed output. */
  readonly inputSha256: string;
  /** File holding the expected output, relative to the manifest. */
  readonly output: string;
  readonly outputSha256: string;
  readonly outputChars: number;
  /** Projection time when the manifest was written (frozen windows only). */
  readonly elapsedMs?: number;
}

/** `manifest.json` of a golden directory. */
export interface GoldenManifest {
  readonly format: 1;
  readonly windows: readonly GoldenEntry[];
}

/** Where a golden window's files go and who may read them. */
export interface GoldenTarget {
  readonly dir: string;
  /** Private (mode 0600) for windows from the user's sessions; plain for generated ones. */
  readonly private: boolean;
}

/** Name of the manifest file inside a golden directory. */
export const MANIFEST_FILE = "manifest.json";

/**
 * Projects each window, writes its output as `<id>.md` (and, for windows without a spec, its
 * input as `<id>.input.json`), and writes the manifest. `specOf` gives a window's generator
 * parameters when it has them.
 */
export async function writeGolden(
  target: GoldenTarget,
  windows: readonly ProofWindow[],
  specOf: (id: string) => WindowSpec | undefined = () => undefined,
): Promise<GoldenManifest> {
  await notAnotherFile(target.dir);
  const write = (name: string, text: string) =>
    target.private
      ? writePrivateFile(join(target.dir, name), text)
      : Deno.mkdir(target.dir, { recursive: true }).then(() =>
        Deno.writeTextFile(join(target.dir, name), text)
      );
  const entries: GoldenEntry[] = [];
  for (const window of windows) {
    const name = fileName(window.id);
    const inputText = JSON.stringify(window.rows);
    const started = performance.now();
    const { body } = project(window.rows, window.options);
    const elapsedMs = performance.now() - started;
    const spec = specOf(window.id);
    if (!spec) await write(`${name}.input.json`, JSON.stringify(window));
    await write(`${name}.md`, body);
    entries.push({
      id: window.id,
      ...(spec ? { spec } : { input: `${name}.input.json`, elapsedMs: round(elapsedMs) }),
      inputSha256: await sha256Hex(inputText),
      output: `${name}.md`,
      outputSha256: await sha256Hex(body),
      outputChars: body.length,
    });
  }
  const manifest: GoldenManifest = { format: 1, windows: entries };
  await write(MANIFEST_FILE, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** How one golden window compared. */
export interface GoldenVerdict {
  readonly id: string;
  /** `same`, or what changed: the input, the output, or the stored output file. */
  readonly status: "same" | "input-changed" | "output-changed" | "file-changed";
  /** Whether the window's input was frozen from a database (private), not generated from a spec. */
  readonly frozen: boolean;
  /** The unified diff from the stored output to this checkout's; absent when they are equal. */
  readonly diff?: string;
  readonly elapsedMs: number;
}

/**
 * Re-projects every window of the manifest in `dir` and compares the bytes. `rebuild` recreates
 * the inputs of generated windows from their specs.
 */
export async function checkGolden(
  dir: string,
  rebuild: (specs: readonly WindowSpec[]) => readonly ProofWindow[],
): Promise<GoldenVerdict[]> {
  const manifest = await readManifest(dir);
  const specs = manifest.windows.flatMap((entry) => (entry.spec ? [entry.spec] : []));
  const generated = new Map(rebuild(specs).map((window) => [window.id, window]));
  const verdicts: GoldenVerdict[] = [];
  for (const entry of manifest.windows) {
    const window = entry.spec
      ? generated.get(entry.id)
      : JSON.parse(await goldenFile(join(dir, entry.input ?? ""))) as ProofWindow;
    if (!window) throw new Error(`golden window ${entry.id} has neither a spec nor an input`);
    const started = performance.now();
    const { body } = project(window.rows, window.options);
    const elapsedMs = round(performance.now() - started);
    const stored = await goldenFile(join(dir, entry.output));
    const status = (await sha256Hex(JSON.stringify(window.rows))) !== entry.inputSha256
      ? "input-changed"
      : (await sha256Hex(body)) !== entry.outputSha256
      ? "output-changed"
      : stored !== body
      ? "file-changed"
      : "same";
    const diff = unifiedDiff(stored, body);
    verdicts.push({
      id: entry.id,
      status,
      frozen: !entry.spec,
      ...(diff ? { diff } : {}),
      elapsedMs,
    });
  }
  return verdicts;
}

/** A golden directory that cannot be used: what is missing or wrong in it, in one line. */
export class GoldenDirError extends Error {
  /**
   * `not-a-directory`: the path names something else; `no-manifest`: nothing was ever written
   * there; `broken`: a file it lists is missing or unreadable as what it should be.
   */
  readonly kind: "not-a-directory" | "no-manifest" | "broken";
  constructor(message: string, kind: GoldenDirError["kind"]) {
    super(message);
    this.name = "GoldenDirError";
    this.kind = kind;
  }
}

/** Reads and minimally validates `<dir>/manifest.json`. */
export async function readManifest(dir: string): Promise<GoldenManifest> {
  const path = join(dir, MANIFEST_FILE);
  await notAnotherFile(dir);
  const text = await goldenFile(path, true);
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new GoldenDirError(`${path} is not valid JSON`, "broken");
  }
  if (value?.format !== 1 || !Array.isArray(value.windows)) {
    throw new GoldenDirError(`${path} is not a golden manifest`, "broken");
  }
  return value as GoldenManifest;
}

/** Fails when `dir` names something other than a directory (a missing one may be made). */
async function notAnotherFile(dir: string): Promise<void> {
  const info = await Deno.stat(dir).catch(() => undefined);
  if (info !== undefined && !info.isDirectory) {
    throw new GoldenDirError(`${dir} is not a directory`, "not-a-directory");
  }
}

/** The text of a file of a golden directory; a missing one is named, the manifest as such. */
async function goldenFile(path: string, manifest = false): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw manifest
      ? new GoldenDirError(`no golden manifest at ${path}`, "no-manifest")
      : new GoldenDirError(`${path} is listed in the manifest but missing`, "broken");
  }
}

function fileName(id: string): string {
  return id.replace(/[^\w.-]/g, "_");
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
