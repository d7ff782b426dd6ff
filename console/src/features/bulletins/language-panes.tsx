/**
 * The announcement's other languages beside the simplified text (docs/console.md#other-languages):
 * the traditional version the server makes at save (自动转换), shown as the site shows it, which
 * the operator may take over and edit (then it stays as written) or hand back (重新转换); and an
 * English version, written by hand or left empty. The panes themselves: ui/language-pane.tsx.
 */
import { useState } from 'react';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { inputClass } from '../../ui/field';
import { EnglishPane, TraditionalPane } from '../../ui/language-pane';
import { BulletinHtml } from './bulletin-html';
import type { EditorValues } from './editor-form';
import { RichText } from './rich-text';

/** `resetKey`: the body's, bumped when another version replaces what is typed. */
export function LanguagePanes({ resetKey }: { resetKey: number }) {
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <Traditional resetKey={resetKey} />
      <English resetKey={resetKey} />
    </div>
  );
}

function Traditional({ resetKey }: { resetKey: number }) {
  const { control, register, setValue } = useFormContext<EditorValues>();
  const byHand = useWatch({ control, name: 'twByHand' });
  const reconvert = useWatch({ control, name: 'reconvert' });
  const title = useWatch({ control, name: 'titleTw' });
  const html = useController({ control, name: 'htmlTw' });
  // The editor mounts with the text it takes over; a new key when it is taken over again.
  const [taken, setTaken] = useState(0);
  const set = (name: 'twByHand' | 'reconvert', value: boolean) => setValue(name, value, { shouldDirty: true });
  const state = {
    byHand,
    reconvert,
    takeOver: () => (set('twByHand', true), set('reconvert', false), setTaken(taken + 1)),
    handBack: () => (set('twByHand', false), set('reconvert', true)),
  };
  return (
    <TraditionalPane
      id="pane-tw"
      state={state}
      byHand={
        <>
          <input aria-label="繁體標題" {...register('titleTw')} className={inputClass} />
          <RichText
            key={`${resetKey}-${taken}`}
            id="bulletin-body-tw"
            labelledBy="pane-tw"
            initialHtml={html.field.value}
            resetKey={0}
            onChange={html.field.onChange}
          />
        </>
      }
      made={
        <>
          <p className="font-medium">{title || '（保存后生成）'}</p>
          <BulletinHtml html={html.field.value} />
          <p className="text-xs text-muted">
            保存时由简体自动转换为繁体（台湾用语），只转换文字，不改链接、图片和代码。
          </p>
        </>
      }
    />
  );
}

function English({ resetKey }: { resetKey: number }) {
  const { control, register } = useFormContext<EditorValues>();
  const html = useController({ control, name: 'htmlEn' });
  const title = useWatch({ control, name: 'titleEn' });
  // Its editor (and toolbar) appears once there is English or the operator asks for it.
  const [opened, setOpened] = useState(false);
  return (
    <EnglishPane
      id="pane-en"
      open={opened || title !== '' || html.field.value !== ''}
      onOpen={() => setOpened(true)}
      fallback="没有英文标题时，英文网站显示中文原文，并注明原文为中文。"
    >
      <input aria-label="English title" {...register('titleEn')} className={inputClass} />
      <RichText
        key={resetKey}
        id="bulletin-body-en"
        labelledBy="pane-en"
        initialHtml={html.field.value}
        resetKey={0}
        onChange={html.field.onChange}
      />
    </EnglishPane>
  );
}
