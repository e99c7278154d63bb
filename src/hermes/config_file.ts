/**
 * Replacing Hermes's `config.yaml` the way a careful user would: through a symbolic link to the
 * file it names (the link stays), never over a read-only or hard-linked file, with the file's
 * mode and owner kept, a backup of what was there, and an atomic rename of a finished copy.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { YamlEditError } from "./config_errors.ts";

/** A config file as found on disk. */
export interface ConfigFile {
  /** The path named (`$HERMES_HOME/config.yaml`). */
  readonly path: string;
  /** The file it names, after any symbolic links. */
  readonly target: string;
  /** Its content; absent when there is no file yet. */
  readonly bytes?: Uint8Array;
  readonly info?: Deno.FileInfo;
}

/** Reads the config file at `path`, following symbolic links. */
export async function readConfigFile(path: string): Promise<ConfigFile> {
  const link = await Deno.lstat(path).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  if (link === undefined) return { path, target: path };
  const target = link.isSymlink ? await resolveLink(path) : path;
  const info = await Deno.stat(target);
  if (!info.isFile) throw new YamlEditError(`${target} is not a regular file`);
  if ((info.nlink ?? 1) > 1) {
    throw new YamlEditError(
      `${target} has ${info.nlink} hard links, which a new file in its place would not keep`,
    );
  }
  return { path, target, bytes: await Deno.readFile(target), info };
}

async function resolveLink(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    const to = await Deno.readLink(path);
    throw new YamlEditError(`${path} is a symbolic link to ${to}, which does not exist`);
  }
}

/** A finished replacement written beside the file it will replace. */
export interface PreparedWrite {
  readonly file: ConfigFile;
  readonly temporary: string;
}

/**
 * Writes `bytes` to a new file beside `file.target`, with its mode and owner, ready for
 * {@linkcode commitWrite}; refuses a read-only config file first.
 */
export async function prepareWrite(file: ConfigFile, bytes: Uint8Array): Promise<PreparedWrite> {
  await requireWritable(file);
  const temporary = join(dirname(file.target), `.${basename(file.target)}.vcc-new`);
  await Deno.writeFile(temporary, bytes, { mode: 0o600 });
  try {
    if (file.info) await takeModeAndOwner(temporary, file.target, file.info);
  } catch (error) {
    await Deno.remove(temporary);
    throw error;
  }
  return { file, temporary };
}

/** Gives `path` the mode and owner of the file `target` that it will replace. */
async function takeModeAndOwner(path: string, target: string, info: Deno.FileInfo): Promise<void> {
  if (info.mode !== null) await Deno.chmod(path, info.mode & 0o7777);
  const created = await Deno.stat(path);
  if (info.uid === null || info.gid === null) return;
  if (created.uid === info.uid && created.gid === info.gid) return;
  try {
    await Deno.chown(path, info.uid, info.gid);
  } catch (error) {
    if (!(error instanceof Deno.errors.PermissionDenied)) throw error;
    throw new YamlEditError(
      `${target} belongs to user ${info.uid}, group ${info.gid}, and a copy written by this ` +
        "user could not be given that owner back",
    );
  }
}

/** Refuses a config file that is read-only (by its mode, or to this process). */
export async function requireWritable({ target, info }: ConfigFile): Promise<void> {
  if (info === undefined) return;
  const mode = info.mode ?? 0o644;
  const readOnly = (mode & 0o222) === 0 ||
    await Deno.open(target, { write: true }).then((handle) => {
      handle.close();
      return false;
    }, (error) => {
      if (error instanceof Deno.errors.PermissionDenied) return true;
      throw error;
    });
  if (readOnly) {
    const octal = (mode & 0o777).toString(8).padStart(4, "0");
    throw new YamlEditError(`${target} is read-only (mode ${octal}); make it writable first`);
  }
}

/** Removes a prepared replacement that will not be used. */
export async function discardWrite(write: PreparedWrite): Promise<void> {
  await Deno.remove(write.temporary).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
}

/**
 * Backs the config file up beside `file.path` (as `config.yaml.vcc-backup-<now>`, never over an
 * earlier backup), then puts the replacement in its place. Refuses, and changes nothing, when the
 * file changed since it was read. Returns the backup's path (none when there was no file).
 */
export async function commitWrite(write: PreparedWrite, now: Date): Promise<string | undefined> {
  const { file } = write;
  const current = await Deno.readFile(file.target).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  if (!sameBytes(current, file.bytes)) {
    await discardWrite(write);
    throw new YamlEditError(
      `${file.target} changed while vcc was editing it; run the command again`,
    );
  }
  const backup = file.bytes && await writeBackup(file.path, file.bytes, now);
  await Deno.rename(write.temporary, file.target);
  return backup;
}

/** Backs the config file up as {@linkcode commitWrite} does, then removes it. */
export async function removeConfigFile(file: ConfigFile, now: Date): Promise<string | undefined> {
  const backup = file.bytes && await writeBackup(file.path, file.bytes, now);
  await Deno.remove(file.target);
  return backup;
}

async function writeBackup(path: string, bytes: Uint8Array, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[-:]|\.\d+/g, "");
  for (let n = 1;; n++) {
    const candidate = `${path}.vcc-backup-${stamp}${n === 1 ? "" : `-${n}`}`;
    try {
      await Deno.writeFile(candidate, bytes, { createNew: true, mode: 0o600 });
      return candidate;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
}

/** Whether `a` and `b` hold the same bytes (or are both absent). */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
