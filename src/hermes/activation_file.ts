/**
 * The record `vcc hermes install --activate` leaves in the plugin directory: the `config.yaml`
 * fingerprints before and after its edit, the backup it made, and what each key was before, so
 * `vcc hermes uninstall` can put back the original bytes, or failing that undo only the edit.
 *
 * @module
 */
import { join } from "node:path";
import type { ActivationRecord, ParentBefore, Previous } from "./_activation.ts";

/** Name of the record in the plugin directory. */
export const ACTIVATION_FILE = "activation.json";

/** What one activation did to `config.yaml`. */
export interface ActivationFile {
  /** SHA-256 (hex) of `config.yaml` before the edit; `null` when there was no file. */
  readonly before: string | null;
  /** SHA-256 (hex) of `config.yaml` as the edit wrote it. */
  readonly after: string;
  /** The copy made before the edit; absent when there was no file. */
  readonly backup?: string;
  readonly changes: ActivationRecord;
}

/** The SHA-256 of `bytes`, in hex. */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Writes `record` into the plugin directory `directory`. */
export async function writeActivationFile(
  directory: string,
  record: ActivationFile,
): Promise<void> {
  await Deno.writeTextFile(
    join(directory, ACTIVATION_FILE),
    `${JSON.stringify(record, null, 2)}\n`,
  );
}

/** The record in `directory`; `undefined` when there is none or it is not one. */
export async function readActivationFile(directory: string): Promise<ActivationFile | undefined> {
  let data: unknown;
  try {
    data = JSON.parse(await Deno.readTextFile(join(directory, ACTIVATION_FILE)));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof SyntaxError) return undefined;
    throw error;
  }
  return isActivationFile(data) ? data : undefined;
}

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isActivationFile(value: unknown): value is ActivationFile {
  if (!isObject(value) || !isObject(value.changes)) return false;
  const { engine, enabled } = value.changes;
  return (value.before === null || typeof value.before === "string") &&
    typeof value.after === "string" &&
    (value.backup === undefined || typeof value.backup === "string") &&
    (engine === undefined || isPrevious(engine)) &&
    (enabled === undefined || isPrevious(enabled));
}

function isPrevious(value: unknown): value is Previous {
  if (!isObject(value)) return false;
  if (value.kind === "value") return typeof value.source === "string";
  if (value.kind === "absent") return isParentBefore(value.parent);
  return value.kind === "list";
}

function isParentBefore(value: unknown): value is ParentBefore {
  if (!isObject(value)) return false;
  if (value.kind === "null") return typeof value.source === "string";
  return value.kind === "mapping" || value.kind === "absent";
}
