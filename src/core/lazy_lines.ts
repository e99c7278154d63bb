/**
 * Lines grouped by source row, each group rendered only when first needed: the session log of a
 * large window is mostly cut by the budget, so most rows are never rendered.
 */
export class LazyLines {
  readonly #render: (index: number) => readonly string[];
  readonly #cache: (readonly string[] | undefined)[];

  constructor(groups: number, render: (index: number) => readonly string[]) {
    this.#render = render;
    this.#cache = new Array(groups);
  }

  /** The groups of `parts`, in order, as one: each rendered by its part, once. */
  static joined(parts: readonly LazyLines[]): LazyLines {
    const starts: number[] = [];
    let groups = 0;
    for (const part of parts) {
      starts.push(groups);
      groups += part.groups;
    }
    return new LazyLines(groups, (index) => {
      let part = parts.length - 1;
      while (part > 0 && (starts[part] as number) > index) part--;
      return (parts[part] as LazyLines).at(index - (starts[part] as number));
    });
  }

  /** Number of groups. */
  get groups(): number {
    return this.#cache.length;
  }

  /** The lines of group `index`, rendered once. */
  at(index: number): readonly string[] {
    return this.#cache[index] ??= this.#render(index);
  }

  /** Every line, oldest first (renders all groups). */
  all(): string[] {
    const lines: string[] = [];
    for (let group = 0; group < this.groups; group++) lines.push(...this.at(group));
    return lines;
  }

  /**
   * The newest lines, oldest first, as long as they fit in `limit` characters; `groups` counts
   * the groups with at least one line kept (or without lines at all, when every group fits).
   */
  newest(limit: number): { lines: string[]; complete: boolean; groups: number } {
    const picked: (readonly string[])[] = [];
    let size = 0;
    for (let group = this.groups - 1; group >= 0; group--) {
      const lines = this.at(group);
      for (let index = lines.length - 1; index >= 0; index--) {
        const line = lines[index] as string;
        if (size + line.length + 1 > limit) {
          const partial = lines.slice(index + 1);
          picked.push(partial);
          const groups = this.groups - 1 - group + (partial.length > 0 ? 1 : 0);
          return { lines: picked.reverse().flat(), complete: false, groups };
        }
        size += line.length + 1;
      }
      picked.push(lines);
    }
    return { lines: picked.reverse().flat(), complete: true, groups: this.groups };
  }
}
