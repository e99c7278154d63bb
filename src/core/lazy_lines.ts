/**
 * Lines grouped by source row, each group rendered only when first needed: the session log of a
 * large window is mostly cut by the budget, so most rows are never rendered.
 */
export class LazyLines {
  readonly #render: (index: number) => readonly string[];
  readonly #lined: (index: number) => boolean;
  readonly #cache: (readonly string[] | undefined)[];

  /**
   * `groups` groups, group `index` rendered by `render(index)`; `lined(index)` tells whether it
   * has any line, when that is cheaper to tell than rendering it.
   */
  constructor(
    groups: number,
    render: (index: number) => readonly string[],
    lined?: (index: number) => boolean,
  ) {
    this.#render = render;
    this.#lined = lined ?? ((index) => this.at(index).length > 0);
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
    // The part a group is in, and its index there.
    const locate = (index: number): [LazyLines, number] => {
      let part = parts.length - 1;
      while (part > 0 && (starts[part] as number) > index) part--;
      return [parts[part] as LazyLines, index - (starts[part] as number)];
    };
    return new LazyLines(groups, (index) => {
      const [part, at] = locate(index);
      return part.at(at);
    }, (index) => {
      const [part, at] = locate(index);
      return part.lined(at);
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

  /** Whether group `index` has any line. */
  lined(index: number): boolean {
    const cached = this.#cache[index];
    return cached === undefined ? this.#lined(index) : cached.length > 0;
  }

  /** How many of the first `end` groups have a line, counted up to `most`. */
  linedBefore(end: number, most = Infinity): number {
    let count = 0;
    for (let index = end - 1; index >= 0 && count < most; index--) {
      if (this.lined(index)) count++;
    }
    return count;
  }

  /** Every line, oldest first (renders all groups). */
  all(): string[] {
    const lines: string[] = [];
    for (let group = 0; group < this.groups; group++) lines.push(...this.at(group));
    return lines;
  }

  /**
   * The newest lines, oldest first, as long as they fit in `limit` characters; `dropped` counts
   * the groups that have lines but none kept, up to `most` of them.
   */
  newest(
    limit: number,
    most = Infinity,
  ): { lines: string[]; complete: boolean; dropped: number } {
    const picked: (readonly string[])[] = [];
    let size = 0;
    for (let group = this.groups - 1; group >= 0; group--) {
      const lines = this.at(group);
      for (let index = lines.length - 1; index >= 0; index--) {
        const line = lines[index] as string;
        if (size + line.length + 1 > limit) {
          const partial = lines.slice(index + 1);
          picked.push(partial);
          // The group cut in is dropped when none of its lines is kept.
          const cut = partial.length > 0 ? 0 : 1;
          const dropped = cut + this.linedBefore(group, most - cut);
          return { lines: picked.reverse().flat(), complete: false, dropped };
        }
        size += line.length + 1;
      }
      picked.push(lines);
    }
    return { lines: picked.reverse().flat(), complete: true, dropped: 0 };
  }
}
