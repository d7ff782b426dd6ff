import { wallClock } from '@chat-site/contract';

/** The admin API's times are "YYYY-MM-DD HH:MM:SS" on the server's wall clock (its time zone);
 * a datetime-local field holds "YYYY-MM-DDTHH:MM". The field is read as the server's wall clock
 * too, and labelled with its zone, so what an operator types is what visitors' dates show. */

export const toFieldTime = (wire: string): string => wire.slice(0, 16).replace(' ', 'T');

export const fromFieldTime = (field: string): string => `${field.replace('T', ' ')}:00`.slice(0, 19);

/** Now on the server's wall clock, in the wire's form. */
export const wallClockNow = (timeZone: string, now = Date.now()): string => wallClock(now, timeZone);

/** "2026-11-25 09:30" for lists: seconds say nothing to an operator. */
export const shortTime = (wire: string): string => wire.slice(0, 16);
