/**
 * The Asia-Pacific gateway's log, written in Japanese, Russian or Korean (the seed chooses):
 * routine lines and one tagged delivery error naming a queue and its backlog. The session reads
 * its last lines with `tail`.
 *
 * @module
 */
import type { SeededRandom } from "../../../sample/random.ts";
import type { LedgerValues, RegionalLanguage } from "./values.ts";

/** The log, its one error line (without its timestamp) and the words that state the backlog. */
export interface RegionalLog {
  readonly text: string;
  readonly errorLine: string;
  readonly backlog: string;
}

/** Lines in the file; the session prints the last {@linkcode REGIONAL_TAIL_LINES}. */
const LINES = 400;
/** How many lines `tail -n` prints. */
export const REGIONAL_TAIL_LINES = 150;

interface Phrases {
  routine(random: SeededRandom): string;
  backlog(pending: number): string;
  error(queue: string, backlog: string): string;
}

const PHRASES: Record<RegionalLanguage, Phrases> = {
  ja: {
    routine: (random) =>
      random.chance(0.5)
        ? `情報 [ゲートウェイ] 接続を受け付けました client=10.0.${random.range(0, 9)}.${
          random.range(2, 250)
        }`
        : `情報 [配信] キュー q-${random.range(41, 99)} に ${random.range(1, 60)} 件を送信しました`,
    backlog: (pending) => `送信待ち ${pending} 件`,
    error: (queue, backlog) =>
      `[エラー] [配信] キュー ${queue} の配信がタイムアウトしました（${backlog}）`,
  },
  ru: {
    routine: (random) =>
      random.chance(0.5)
        ? `ИНФО [шлюз] соединение принято client=10.0.${random.range(0, 9)}.${random.range(2, 250)}`
        : `ИНФО [доставка] в очередь q-${random.range(41, 99)} отправлено ${
          random.range(1, 60)
        } сообщений`,
    backlog: (pending) => `в ожидании ${pending}`,
    error: (queue, backlog) =>
      `[ОШИБКА] [доставка] очередь ${queue}: истекло время доставки (${backlog})`,
  },
  ko: {
    routine: (random) =>
      random.chance(0.5)
        ? `정보 [게이트웨이] 연결 수락 client=10.0.${random.range(0, 9)}.${random.range(2, 250)}`
        : `정보 [전달] 큐 q-${random.range(41, 99)}에 ${random.range(1, 60)}건 전송 완료`,
    backlog: (pending) => `대기 ${pending}건`,
    error: (queue, backlog) => `[오류] [전달] 큐 ${queue} 전달 시간 초과 (${backlog})`,
  },
};

/** The log; its error line falls within the printed tail, not among its last ten lines. */
export function regionalLog(random: SeededRandom, values: LedgerValues): RegionalLog {
  const phrases = PHRASES[values.regionalLanguage];
  const backlog = phrases.backlog(values.regionalPending);
  const errorLine = phrases.error(values.regionalQueue, backlog);
  const body = Array.from({ length: LINES - 1 }, () => phrases.routine(random));
  body.splice(LINES - random.range(20, REGIONAL_TAIL_LINES - 10), 0, errorLine);
  const start = Date.parse(`${values.night}T03:00:00Z`);
  const lines = body.map((line, index) =>
    `${new Date(start + index * 9_000).toISOString().slice(0, 19)}Z ${line}`
  );
  return { text: `${lines.join("\n")}\n`, errorLine, backlog };
}
