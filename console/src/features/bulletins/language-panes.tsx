/**
 * The announcement's other languages beside the simplified text (docs/console.md#other-languages):
 * the traditional version the server makes at save (自动转换), shown as the site shows it, which
 * the operator may take over and edit (then it stays as written) or hand back (重新转换); and an
 * English version, written by hand or left empty.
 */
import { useState } from 'react';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { Button } from '../../ui/button';
import { inputClass } from '../../ui/field';
import { BulletinHtml } from './bulletin-html';
import type { EditorValues } from './editor-form';
import { RichText } from './rich-text';

/** `resetKey`: the body's, bumped when another version replaces what is typed. */
export function LanguagePanes({ resetKey }: { resetKey: number }) {
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <TraditionalPane resetKey={resetKey} />
      <EnglishPane resetKey={resetKey} />
    </div>
  );
}

const paneClass = 'flex flex-col gap-3 rounded-lg border border-line p-4';

function TraditionalPane({ resetKey }: { resetKey: number }) {
  const { control, register, setValue } = useFormContext<EditorValues>();
  const byHand = useWatch({ control, name: 'twByHand' });
  const reconvert = useWatch({ control, name: 'reconvert' });
  const title = useWatch({ control, name: 'titleTw' });
  const html = useController({ control, name: 'htmlTw' });
  // The editor mounts with the text it takes over; a new key when it is taken over again.
  const [taken, setTaken] = useState(0);
  const set = (name: 'twByHand' | 'reconvert', value: boolean) => setValue(name, value, { shouldDirty: true });
  return (
    <section aria-labelledby="pane-tw" className={paneClass}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="pane-tw" className="text-sm font-medium">
          繁体中文
          <span className="ml-2 text-xs font-normal text-muted">
            {byHand ? '手动修改' : reconvert ? '保存时重新转换' : '自动转换'}
          </span>
        </h2>
        {byHand ? (
          <Button onClick={() => (set('twByHand', false), set('reconvert', true))}>重新转换</Button>
        ) : (
          <Button onClick={() => (set('twByHand', true), set('reconvert', false), setTaken(taken + 1))}>
            修改繁体
          </Button>
        )}
      </div>
      {byHand ? (
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
      ) : (
        <>
          <p className="font-medium">{title || '（保存后生成）'}</p>
          <BulletinHtml html={html.field.value} />
          <p className="text-xs text-muted">
            保存时由简体自动转换为繁体（台湾用语），只转换文字，不改链接、图片和代码。
          </p>
        </>
      )}
    </section>
  );
}

function EnglishPane({ resetKey }: { resetKey: number }) {
  const { control, register } = useFormContext<EditorValues>();
  const html = useController({ control, name: 'htmlEn' });
  const title = useWatch({ control, name: 'titleEn' });
  // Its editor (and toolbar) appears once there is English or the operator asks for it.
  const [opened, setOpened] = useState(false);
  const open = opened || title !== '' || html.field.value !== '';
  return (
    <section aria-labelledby="pane-en" className={paneClass}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="pane-en" className="text-sm font-medium">
          English
          <span className="ml-2 text-xs font-normal text-muted">选填，手动填写</span>
        </h2>
        {!open && <Button onClick={() => setOpened(true)}>添加英文</Button>}
      </div>
      {open && (
        <>
          <input aria-label="English title" {...register('titleEn')} className={inputClass} />
          <RichText
            key={resetKey}
            id="bulletin-body-en"
            labelledBy="pane-en"
            initialHtml={html.field.value}
            resetKey={0}
            onChange={html.field.onChange}
          />
        </>
      )}
      <p className="text-xs text-muted">没有英文标题时，英文网站显示中文原文，并注明原文为中文。</p>
    </section>
  );
}
