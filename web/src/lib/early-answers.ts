import { earlyAnswersGlobal } from '@chat-site/contract';

/** What src/boot-route.ts leaves on window: its early calls by URL, when it made them, and, for
 * the early drawing of a screen (src/early-download.ts), the screen data's answer once the ping
 * has answered and what to call once it is drawn (or will not be). */
export interface EarlyAnswers {
  at: number;
  answers: Record<string, { answer: Promise<Response>; controller: AbortController } | undefined>;
  data?: Promise<Response | null>;
  drawn?: () => void;
}

type WithEarlyAnswers = Record<typeof earlyAnswersGlobal, EarlyAnswers | undefined>;

/** The early answers, if the boot script asked any. */
export const earlyAnswers = (): EarlyAnswers | undefined => (window as unknown as WithEarlyAnswers)[earlyAnswersGlobal];

export function setEarlyAnswers(early: EarlyAnswers): void {
  (window as unknown as WithEarlyAnswers)[earlyAnswersGlobal] = early;
}
