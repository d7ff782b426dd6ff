/** The audit log as the console reads it (docs/console.md). */
import { Type, type Static } from 'typebox';
import { PageIndex } from './common.js';

/** A day in the server's time zone, for the audit log's range. */
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const AuditQuery = Type.Object({
  who: Type.String({ maxLength: 200, default: '' }),
  action: Type.String({ maxLength: 100, default: '' }),
  from: Type.Union([Type.Literal(''), Day], { default: '' }),
  to: Type.Union([Type.Literal(''), Day], { default: '' }),
  q: Type.String({ maxLength: 200, default: '' }),
  page_index: PageIndex,
  page_size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});

export const AuditEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  actor: Type.String(),
  action: Type.String(),
  target: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditPage = Type.Object({ count: Type.Integer(), list: Type.Array(AuditEntry) });
export type AuditPage = Static<typeof AuditPage>;
