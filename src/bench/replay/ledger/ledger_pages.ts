/**
 * Pages of ledger entries, as `python -m ledger.dump --page N` prints them: about 30,000
 * characters each of routine data the session inspects. They fill the context so Hermes
 * compacts; they plant nothing.
 *
 * @module
 */
import type { SeededRandom } from "../../../sample/random.ts";

const PAGE_CHARS = 30_000;
const CURRENCIES = ["EUR", "USD", "GBP", "JPY"];

/** Page `page` (1-based). */
export function ledgerPage(random: SeededRandom, page: number): string {
  const lines = [`page ${page}: entry, booked, account, direction, amount, state`];
  let size = 0;
  for (let entry = 1; size < PAGE_CHARS; entry++) {
    const line = `E-${String(page).padStart(2, "0")}-${String(entry).padStart(4, "0")} 2026-11-${
      String(random.range(1, 28)).padStart(2, "0")
    } acct A-${random.range(1000, 9999)} ${random.pick(["debit ", "credit"])} ${
      random.range(1, 99999)
    }.${String(random.range(0, 99)).padStart(2, "0")} ${random.pick(CURRENCIES)} ${
      random.pick(["settled", "settled", "settled", "pending"])
    }`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}
