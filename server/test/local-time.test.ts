/**
 * A server process reads wall-clock times with Date's local time, TIME_ZONE made its `TZ`, rather
 * than an Intl formatter (server/src/lib/time.ts, docs/performance.md#footprint). Both must write
 * the same text for every instant: across offsets, half hours, daylight saving's changes both
 * ways, and zones that moved their offset in the years stored announcements come from.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { anyWallClock } from '@chat-site/contract';
import { isTimeZone } from '../src/config.js';
import { fromWireTime, toWireTime, useAsLocalTime } from '../src/lib/time.js';

const zoneBefore = process.env.TZ;
after(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

const zones = [
  'Asia/Shanghai',
  'Asia/Taipei',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Katmandu',
  'America/St_Johns',
  'Pacific/Apia',
  'Africa/Monrovia',
  'UTC',
  'Etc/GMT-0',
  'Zulu',
  'europe/paris',
];

/** Every 3 days, 7 hours, 13 minutes and 37 seconds from 1900 to 2040, so the hour of day, the
 * season and the seconds all vary, and each year of offset changes is crossed many times. */
function* instants(): Generator<number> {
  for (let at = Date.UTC(1900, 0, 1); at < Date.UTC(2040, 0, 1); at += 285_217_000) yield at;
}

test('local time writes what the Intl formatter writes, in zones with every kind of offset', () => {
  for (const zone of zones) {
    useAsLocalTime(zone);
    assert.equal(process.env.TZ?.toLowerCase(), zone.toLowerCase(), `${zone} became the local time`);
    let checked = 0;
    for (const at of instants()) {
      assert.equal(toWireTime(new Date(at), zone), anyWallClock(at, zone), `${new Date(at).toISOString()} in ${zone}`);
      checked += 1;
    }
    assert.ok(checked > 15_000);
    // Around one daylight-saving change each way, second by second.
    for (const change of [Date.UTC(2024, 2, 10, 7), Date.UTC(2024, 10, 3, 6)]) {
      for (let at = change - 3_600_000; at <= change + 3_600_000; at += 1000) {
        assert.equal(toWireTime(new Date(at), zone), anyWallClock(at, zone));
      }
    }
  }
});

test('reading a wall-clock time back gives the instant the Intl path gave', () => {
  useAsLocalTime('America/New_York');
  // The gap (02:30 does not exist) and the repeated hour (01:30 happens twice) included.
  for (const text of ['2024-03-10 02:30:00', '2024-11-03 01:30:00', '2024-07-01 12:00:00', '1999-12-31 23:59:59']) {
    const local = fromWireTime(text, 'America/New_York');
    delete process.env.TZ;
    const intl = fromWireTime(text, 'America/New_York');
    process.env.TZ = 'America/New_York';
    assert.equal(local, intl, text);
  }
});

test('another zone than the local one, or a spelling TZ does not read, goes through Intl', () => {
  useAsLocalTime('Asia/Shanghai');
  const at = Date.UTC(2024, 4, 1, 12);
  assert.equal(toWireTime(new Date(at), 'Europe/London'), '2024-05-01 13:00:00');
  // A link ICU lists under another name: TZ is left as it was, and Intl answers.
  useAsLocalTime('Asia/Kolkata');
  assert.equal(process.env.TZ, 'Asia/Shanghai');
  assert.equal(toWireTime(new Date(at), 'Asia/Kolkata'), '2024-05-01 17:30:00');
  // Another case is spelt as TZ reads it.
  useAsLocalTime('asia/shanghai');
  assert.equal(process.env.TZ, 'Asia/Shanghai');
  assert.equal(toWireTime(new Date(at), 'asia/shanghai'), '2024-05-01 20:00:00');
  assert.equal(
    toWireTime(new Date(Date.UTC(1800, 0, 1)), 'Asia/Shanghai'),
    anyWallClock(Date.UTC(1800, 0, 1), 'Asia/Shanghai'),
  );
});

test('time zone names: canonical ones, aliases and other spellings Intl knows pass; others do not', () => {
  for (const zone of ['Asia/Shanghai', 'UTC', 'Etc/UTC', 'GMT', 'US/Eastern', 'PRC', 'asia/shanghai', 'Asia/Kolkata']) {
    assert.equal(isTimeZone(zone), true, zone);
  }
  for (const zone of ['Asia/Nowhere', '', 'UTC+8', 'Shanghai']) assert.equal(isTimeZone(zone), false, zone);
});
