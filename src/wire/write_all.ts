const encoder = new TextEncoder();

/** Writes all of `text` as UTF-8 to a synchronous file such as `Deno.stderr`, looping on short writes. */
export function writeAll(file: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
}
