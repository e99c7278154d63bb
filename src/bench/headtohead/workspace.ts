import { join } from "node:path";
import { writePrivateJson } from "../private_files.ts";
import type { Question } from "./questions.ts";

/** A window frozen for the head-to-head, with the questions every context is asked about it. */
export interface FrozenWindow {
  readonly id: string;
  readonly sessionId: string;
  readonly rows: readonly unknown[];
  /** Budget the vcc projection gets for this window. */
  readonly budgetTokens: number;
  readonly questions: readonly Question[];
}

/** A summary or projection of one window under some context, with how long it took. */
export interface ContextText {
  readonly text?: string;
  readonly error?: string;
  readonly elapsedMs: number;
}

/** One reply to one wording of one question. */
export interface Answer {
  readonly question: string;
  readonly wording: 0 | 1;
  readonly reply: string;
}

/** Context name of the compacted region rendered without compaction. */
export const FULL = "FULL";
/** Context name of the stock-style summary from the model server. */
export const STOCK = "STOCK";

/**
 * The head-to-head's files under one directory (mode 0600): `windows/`, `stock/`,
 * `variants/<name>/`, `answers/<context>/`. Every step reads what the earlier ones wrote and
 * skips work already done, so a run of hours can be resumed.
 */
export class HeadToHeadWorkspace {
  constructor(readonly dir: string) {}

  /** Ids of the frozen windows, sorted. */
  async windowIds(): Promise<string[]> {
    return (await this.#names("windows")).sort();
  }

  /** The context names that have answers, sorted (FULL and STOCK first). */
  async answeredContexts(): Promise<string[]> {
    const names = await this.#dirs("answers");
    const rank = (name: string) => (name === FULL ? 0 : name === STOCK ? 1 : 2);
    return names.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Variant names that have projections. */
  variants(): Promise<string[]> {
    return this.#dirs("variants");
  }

  window(id: string): Promise<FrozenWindow> {
    return this.#read(this.#path("windows", id));
  }

  saveWindow(window: FrozenWindow): Promise<void> {
    return writePrivateJson(this.#path("windows", window.id), window);
  }

  /** The stock summary, or a variant's projection, of window `id`; undefined when not made yet. */
  contextText(context: string, id: string): Promise<ContextText | undefined> {
    return this.#maybe(this.#contextPath(context, id));
  }

  saveContextText(context: string, id: string, text: ContextText): Promise<void> {
    return writePrivateJson(this.#contextPath(context, id), text);
  }

  answers(context: string, id: string): Promise<Answer[] | undefined> {
    return this.#maybe(this.#path(join("answers", safe(context)), id));
  }

  saveAnswers(context: string, id: string, answers: readonly Answer[]): Promise<void> {
    return writePrivateJson(this.#path(join("answers", safe(context)), id), answers);
  }

  #contextPath(context: string, id: string): string {
    return context === STOCK
      ? this.#path("stock", id)
      : this.#path(join("variants", safe(context)), id);
  }

  #path(folder: string, id: string): string {
    return join(this.dir, folder, `${safe(id)}.json`);
  }

  async #names(folder: string): Promise<string[]> {
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(join(this.dir, folder))) {
        if (entry.isFile && entry.name.endsWith(".json")) names.push(entry.name.slice(0, -5));
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return names;
  }

  async #dirs(folder: string): Promise<string[]> {
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(join(this.dir, folder))) {
        if (entry.isDirectory) names.push(entry.name);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return names.sort();
  }

  async #read<T>(path: string): Promise<T> {
    return JSON.parse(await Deno.readTextFile(path)) as T;
  }

  async #maybe<T>(path: string): Promise<T | undefined> {
    try {
      return await this.#read<T>(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  }
}

/** A name usable as a file name: anything but letters, digits, `.`, `_` and `-` becomes `_`. */
function safe(name: string): string {
  return name.replace(/[^\w.-]/g, "_");
}
