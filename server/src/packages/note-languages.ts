/**
 * A release's notes in each language the site speaks (docs/behaviour.md#release-notes-in-every-language):
 * the traditional Chinese made from the simplified at publishing, by the announcements' converter,
 * unless the operator wrote it; English written by hand or not at all. A visitor asking for
 * English gets the Chinese, said to be Chinese, when there is none.
 */
import type { Language } from '@chat-site/contract';
import { traditionalText } from '../lib/chinese-scripts.js';

export interface NoteVersions {
  notes_tw: string | null;
  notes_tw_by_hand: number;
  notes_en: string | null;
}

/** What the operator sent beside the notes: blank is the same as nothing. */
export interface GivenNotes {
  notesTw?: string | undefined;
  notesEn?: string | undefined;
}

const given = (text: string | undefined): string | undefined =>
  text === undefined || text.trim() === '' ? undefined : text;

/** The other versions of `notes` (null: none) to store with a release. */
export function noteVersions(notes: string | null, { notesTw, notesEn }: GivenNotes): NoteVersions {
  const byHand = given(notesTw);
  return {
    notes_tw: byHand ?? (notes === null ? null : traditionalText(notes)),
    notes_tw_by_hand: byHand === undefined ? 0 : 1,
    notes_en: given(notesEn) ?? null,
  };
}

/** The notes a visitor reads, and the language they are in; null notes: the release has none. */
export function notesIn(
  row: { notes: string | null } & Partial<Pick<NoteVersions, 'notes_tw' | 'notes_en'>>,
  language: Language,
): { notes: string | null; lang: Language } {
  if (language === 'zh-TW' && row.notes_tw != null) return { notes: row.notes_tw, lang: 'zh-TW' };
  if (language === 'en' && row.notes_en != null) return { notes: row.notes_en, lang: 'en' };
  return { notes: row.notes, lang: 'zh-CN' };
}
