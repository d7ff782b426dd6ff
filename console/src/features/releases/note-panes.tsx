/**
 * A release's notes in the site's other languages (docs/console.md#other-languages): the
 * traditional made when it is published unless the operator writes it (修改繁体; 重新转换 hands it
 * back), and English by hand or none. The same panes as the announcement editor's
 * (ui/language-pane.tsx), with plain text inside, as notes are.
 */
import { useState, type ReactNode } from 'react';
import { inputClass } from '../../ui/field';
import { EnglishPane, TraditionalPane } from '../../ui/language-pane';
import type { NewRelease } from './api';

export interface NoteLanguages {
  /** The panes, to draw under the simplified notes. */
  panes: ReactNode;
  /** The release with the versions the operator wrote. */
  withNotes: (release: NewRelease) => NewRelease;
}

export function useNoteLanguages(id: string): NoteLanguages {
  const [byHand, setByHand] = useState(false);
  const [traditional, setTraditional] = useState('');
  const [english, setEnglish] = useState('');
  const [opened, setOpened] = useState(false);
  // Nothing is stored before publishing: handing back simply drops what was written.
  const state = {
    byHand,
    reconvert: false,
    takeOver: () => setByHand(true),
    handBack: () => (setByHand(false), setTraditional('')),
  };
  const panes = (
    <div className="grid gap-3 lg:grid-cols-2">
      <TraditionalPane
        id={`${id}-notes-tw`}
        level={3}
        state={state}
        byHand={
          <textarea
            aria-label="繁體更新說明"
            rows={3}
            value={traditional}
            onChange={(event) => setTraditional(event.target.value)}
            placeholder="留空则发布时自动转换"
            maxLength={10_000}
            className={inputClass}
          />
        }
        made={<p className="text-xs text-muted">发布时由简体说明自动转换为繁体（台湾用语）。</p>}
      />
      <EnglishPane
        id={`${id}-notes-en`}
        level={3}
        open={opened || english !== ''}
        onOpen={() => setOpened(true)}
        fallback="没有英文说明时，英文网站显示中文说明，并注明原文为中文。"
      >
        <textarea
          aria-label="English release notes"
          rows={3}
          value={english}
          onChange={(event) => setEnglish(event.target.value)}
          maxLength={10_000}
          className={inputClass}
        />
      </EnglishPane>
    </div>
  );
  const withNotes = (release: NewRelease): NewRelease => ({
    ...release,
    ...(byHand && traditional.trim() !== '' && { notes_tw: traditional }),
    ...(english.trim() !== '' && { notes_en: english }),
  });
  return { panes, withNotes };
}
