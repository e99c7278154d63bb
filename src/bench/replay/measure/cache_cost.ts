/**
 * The cache-priced cost of a sequence of requests, as a provider with a prefix cache bills it:
 * the part of each request that repeats the start of the request before it is read from the
 * cache at 0.10× the input price, the rest is written to it at 1.25×. Tokens are UTF-8 bytes over
 * four; the unit is one uncached input token.
 *
 * @module
 */

/** The price of a token the cache already holds. */
export const CACHED_PRICE = 0.10;
/** The price of a token written to the cache. */
export const UNCACHED_PRICE = 1.25;

const encoder = new TextEncoder();

/** Tokens of `text` as the bench counts them: UTF-8 bytes over 4. */
export function textTokens(text: string): number {
  return encoder.encode(text).length / 4;
}

/** The length of the longest common prefix of `a` and `b`, in UTF-16 code units. */
function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let low = 0;
  // Compare in blocks first: requests share long prefixes.
  const block = 4096;
  while (low + block <= limit && a.slice(low, low + block) === b.slice(low, low + block)) {
    low += block;
  }
  while (low < limit && a.charCodeAt(low) === b.charCodeAt(low)) low += 1;
  return low;
}

/** One request's tokens and price given the request before it (`""` for the first). */
export interface PricedRequest {
  readonly tokens: number;
  readonly cachedTokens: number;
  readonly cost: number;
}

/** Prices `text` after `previous`. */
export function priceRequest(previous: string, text: string): PricedRequest {
  const shared = text.slice(0, commonPrefixLength(previous, text));
  const tokens = textTokens(text);
  const cachedTokens = textTokens(shared);
  return {
    tokens,
    cachedTokens,
    cost: cachedTokens * CACHED_PRICE + (tokens - cachedTokens) * UNCACHED_PRICE,
  };
}
