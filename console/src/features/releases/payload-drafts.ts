import { useState } from 'react';
import { ApiError } from '../../lib/api';
import type { Os } from './api';
import {
  payloadBody,
  payloadProblems,
  payloadRefusalPlace,
  takesPayloads,
  type PayloadBody,
  type PayloadDraft,
  type PayloadField,
  type PayloadProblems,
} from './payload-rules';

/** The release form's payload rows and what is said of them: its own checks, and the server's
 * refusal of one payload (field `payloads/N/…`) said under that row's field. */
export function usePayloadDrafts(os: Os, formId: string) {
  const [rows, setRows] = useState<PayloadDraft[]>([]);
  const [problems, setProblems] = useState<PayloadProblems[]>([]);
  const refusal = (error: unknown) => (error instanceof ApiError ? payloadRefusalPlace(error.field, rows) : undefined);
  return {
    rows,
    change(next: PayloadDraft[], edited?: { index: number; fields: PayloadField[] }) {
      setRows(next);
      // A row removed moves the others up: what was said of them is said again at 发布.
      if (edited === undefined) return setProblems([]);
      setProblems((old) =>
        old.map((row, at) =>
          at === edited.index
            ? Object.fromEntries(
                Object.entries(row).filter(([field]) => !edited.fields.includes(field as PayloadField)),
              )
            : row,
        ),
      );
    },
    /** Checks every row; answers the id of the first wrong field, if any. */
    check(): string | undefined {
      if (!takesPayloads(os)) return undefined;
      const found = payloadProblems(os, rows);
      setProblems(found);
      const order: PayloadField[] = ['role', 'file', 'url', 'signature'];
      for (const [at, row] of found.entries()) {
        const field = order.find((name) => row[name] !== undefined);
        if (field !== undefined) return `${formId}-payload-${rows[at]?.key}-${field}`;
      }
      return undefined;
    },
    /** The form's problems, with the server's refusal of a payload at its place. */
    shownProblems(error: unknown): PayloadProblems[] {
      const place = refusal(error);
      return rows.map((_, at) => {
        const own = problems[at] ?? {};
        if (place?.index !== at || !(error instanceof Error)) return own;
        return { ...own, [place.field]: own[place.field] ?? error.message };
      });
    },
    /** True when `error` is the server's refusal of one payload, said under its row. */
    refused: (error: unknown) => refusal(error) !== undefined,
    bodies: (): PayloadBody[] => rows.map(payloadBody),
    files: () => rows.map((row) => (row.source === 'file' ? (row.file ?? undefined) : undefined)),
  };
}
