/** `text` as one single-quoted POSIX shell word. */
export function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}
