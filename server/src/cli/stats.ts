/** `stats`: downloads through the stable /dl links, per platform per day. */
import { downloadPlatforms } from '@chat-site/contract';
import { InvalidArgumentError, type Command } from 'commander';
import { dayBefore, downloadsPerDay, totalOfDays } from '../downloads/repository.js';
import { toWireTime } from '../lib/time.js';
import { timeZone, withDb } from './context.js';
import { print, printJson, printTable } from './output.js';

const maxDays = 3660;

export function registerStatsCommand(command: Command): void {
  command
    .description('downloads through the /dl links per platform per day, newest day first')
    .option('--days <n>', `how many days back from today, 1 to ${maxDays}`, parseDays, 30)
    .option('--json', 'print JSON for scripts')
    .addHelpText('after', '\nDays are calendar days in TIME_ZONE. Days without downloads show zeros.')
    .action(async (options: { days: number; json?: boolean }) => {
      const today = toWireTime(new Date(), timeZone()).slice(0, 10);
      const firstDay = dayBefore(today, options.days - 1);
      const days = await withDb((db) => downloadsPerDay(db, firstDay, today));
      const total = totalOfDays(days);
      if (options.json === true) return printJson({ from: firstDay, to: today, days, total });
      const columns = ['day', ...downloadPlatforms, 'total'] as const;
      const cells = (row: Record<(typeof columns)[number], string | number>) => columns.map((key) => String(row[key]));
      printTable([...columns], [...days.map(cells), cells({ ...total, day: 'total' })]);
      print();
      print(`${total.total} downloads from ${firstDay} to ${today} (${timeZone()})`);
    });
}

function parseDays(text: string): number {
  const days = Number(text);
  if (!/^\d+$/.test(text) || days < 1 || days > maxDays) {
    throw new InvalidArgumentError(`a number of days is a whole number from 1 to ${maxDays}`);
  }
  return days;
}
