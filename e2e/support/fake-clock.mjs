// Loaded into a server process with `node --import` by browser tests that must move its clock
// (scheduled announcements): Date runs FAKE_CLOCK_FILE's milliseconds ahead, read again on each
// SIGUSR2. Timers are untouched, so the server's once-a-second schedule check keeps running and
// sees the moved clock. Test support only; the server knows nothing of it.
import { readFileSync } from 'node:fs';

const file = process.env.FAKE_CLOCK_FILE;
let offset = 0;
const read = () => {
  try {
    offset = Number(readFileSync(file, 'utf8')) || 0;
  } catch {
    offset = 0;
  }
};
read();
process.on('SIGUSR2', read);

const RealDate = Date;
class ShiftedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }
  static now() {
    return RealDate.now() + offset;
  }
}
globalThis.Date = ShiftedDate;
