/**
 * One language of what the operator writes, beside the simplified text
 * (docs/console.md#other-languages): the traditional version the server makes (自动转换), which
 * the operator may take over (修改繁体, then it stays as written) or hand back (重新转换), and an
 * English version written by hand or left out. The announcement editor and the release form
 * draw their panes with these; what is inside (rich text or plain notes) is theirs.
 */
import type { ReactNode } from 'react';
import { Button } from './button';

const paneClass = 'flex flex-col gap-3 rounded-lg border border-line p-4';

/** Where a pane sits: its heading's id, and its level under the screen's headings (2 by default). */
export interface PanePlace {
  id: string;
  level?: 2 | 3;
}

/** A pane: its name and how it is made in the heading, `action` beside them. */
export function LanguagePane({
  id,
  level = 2,
  name,
  status,
  action,
  children,
}: PanePlace & {
  name: string;
  status: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby={id} className={paneClass}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading id={id} className="text-sm font-medium">
          {name}
          <span className="ml-2 text-xs font-normal text-muted">{status}</span>
        </Heading>
        {action}
      </div>
      {children}
    </section>
  );
}

/** Whether the operator has taken the traditional version over, and the button's two ways. */
export interface TraditionalState {
  byHand: boolean;
  /** Handed back since the last save: made again at the next. */
  reconvert: boolean;
  takeOver: () => void;
  handBack: () => void;
}

/** The traditional pane: `byHand` what the operator edits, else `made` (what the converter made,
 * or a placeholder until it has). */
export function TraditionalPane({
  state,
  byHand,
  made,
  ...place
}: PanePlace & {
  state: TraditionalState;
  byHand: ReactNode;
  made: ReactNode;
}) {
  const status = state.byHand ? '手动修改' : state.reconvert ? '保存时重新转换' : '自动转换';
  const action = state.byHand ? (
    <Button onClick={state.handBack}>重新转换</Button>
  ) : (
    <Button onClick={state.takeOver}>修改繁体</Button>
  );
  return (
    <LanguagePane {...place} name="繁体中文" status={status} action={action}>
      {state.byHand ? byHand : made}
    </LanguagePane>
  );
}

/** The English pane: its fields once there is English or the operator asks for them (添加英文). */
export function EnglishPane({
  open,
  onOpen,
  fallback,
  children,
  ...place
}: PanePlace & {
  open: boolean;
  onOpen: () => void;
  /** What the English site shows without it. */
  fallback: string;
  children: ReactNode;
}) {
  return (
    <LanguagePane
      {...place}
      name="English"
      status="选填，手动填写"
      action={!open && <Button onClick={onOpen}>添加英文</Button>}
    >
      {open && children}
      <p className="text-xs text-muted">{fallback}</p>
    </LanguagePane>
  );
}
