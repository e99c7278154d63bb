/** A focus topic reduced to the words that decide whether a line matches it. */
export interface Focus {
  /** Whether `text` mentions any word of the topic (case-insensitive). */
  matches(text: string): boolean;
  readonly active: boolean;
}

const STOPWORDS = new Set([
  "the",
  "and",
  "for",
  "with",
  "that",
  "this",
  "from",
  "into",
  "about",
  "fix",
  "please",
  "what",
  "when",
  "where",
  "how",
  "why",
  // The projection's own role labels: every log line carries one.
  "user",
  "assistant",
  "system",
  "tool",
]);

/** Builds a {@linkcode Focus} from a topic such as `fix the auth bug`; empty topics match nothing. */
export function focusOf(topic: string | undefined): Focus {
  const words = (topic ?? "").toLowerCase().match(/[\p{L}\p{N}_./-]{3,}/gu) ?? [];
  const terms = [...new Set(words.filter((word) => !STOPWORDS.has(word)))];
  if (terms.length === 0) return { matches: () => false, active: false };
  return {
    matches: (text) => {
      const lower = text.toLowerCase();
      return terms.some((term) => lower.includes(term));
    },
    active: true,
  };
}
