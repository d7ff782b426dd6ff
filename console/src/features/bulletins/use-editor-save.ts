import { useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useLocation } from 'wouter';
import { ApiError } from '../../lib/api';
import { wallClockNow } from '../../lib/wire-time';
import { focusAfterWork } from '../../ui/focus-return';
import { useNotify } from '../../ui/toasts';
import { useSaveBulletin, type AdminBulletin, type BulletinDraft, type SaveInput } from './api';
import { draftFor, savedNotice, valuesAfterSave, type Action, type EditorValues } from './editor-form';
import { fromEditorHtml, isEmptyHtml, toEditorHtml } from './html-paths';

/** Someone else's save came first: what this operator sent, and what is there now. */
export interface Conflict {
  mine: BulletinDraft;
  current: AdminBulletin;
  savedBy: string | null;
}

interface EditorSave extends SaveInput {
  action: Action;
  /** From the conflict dialog: the editor then shows the whole saved announcement, the parts
   * taken from the other side too. */
  merged?: boolean;
}

/** The editor's HTML as stored: pictures by their relative path, nothing but empty lines as "". */
export const storedHtml = (html: string): string => (isEmptyHtml(html) ? '' : fromEditorHtml(html));

/** The editor's saves: checks the form, sends it, and on an answer resets the form to what was
 * saved (no longer dirty), or opens the conflict (a 409 with the current version) or shows the
 * refusal. `replace` puts a whole announcement in the form (with the body). */
export function useEditorSave({
  form,
  initial,
  timeZone,
  forget,
  replace,
}: {
  form: UseFormReturn<EditorValues>;
  initial: AdminBulletin | undefined;
  timeZone: string;
  forget: () => void;
  replace: (bulletin: AdminBulletin) => void;
}) {
  const [, navigate] = useLocation();
  const notify = useNotify();
  const [saved, setSaved] = useState<AdminBulletin | undefined>(initial);
  const [conflict, setConflict] = useState<Conflict>();
  const focusBack = useRef<() => void>(undefined);

  const save = useSaveBulletin<EditorSave>({
    onSuccess: (bulletin, { action, merged }) => {
      forget();
      setSaved(bulletin);
      setConflict(undefined);
      if (merged === true) replace(bulletin);
      else form.reset(valuesAfterSave(form.getValues(), bulletin, toEditorHtml));
      notify({ text: savedNotice(action, bulletin, saved?.status === 'published') });
      if (saved === undefined) navigate(`/bulletins/${bulletin.id}`, { replace: true });
    },
    onError: (error, { draft }) => {
      if (error instanceof ApiError && error.status === 409 && typeof error.body.current === 'object') {
        const savedBy = typeof error.body.saved_by === 'string' ? error.body.saved_by : null;
        setConflict({ mine: draft, current: error.body.current as AdminBulletin, savedBy });
        return;
      }
      form.setError('root', { message: error instanceof ApiError ? `保存失败：${error.message}` : '保存失败，请重试' });
    },
    // Here rather than in mutate's own callbacks, which a new announcement's screen change drops.
    onSettled: () => {
      focusBack.current?.();
      focusBack.current = undefined;
    },
  });

  /** A button: only these save or publish, never Enter in a field (docs/console.md#writing-an-announcement). */
  const run = (action: Action) => {
    form.clearErrors();
    const outcome = draftFor(form.getValues(), action, wallClockNow(timeZone), storedHtml, saved);
    if ('problem' in outcome) {
      const { field, text } = outcome.problem;
      form.setError(field ?? 'root', { message: text }, { shouldFocus: field === 'title' });
      return;
    }
    // The pressed button is disabled while saving; focus comes back to it (docs/console.md#keyboard).
    focusBack.current = focusAfterWork();
    save.mutate({ id: saved?.id, draft: outcome.draft, version: saved?.version, action });
  };

  /** 按所选保存 in the conflict dialog: the merged draft over the version now saved. */
  const saveMerged = (draft: BulletinDraft, current: AdminBulletin) =>
    save.mutate({
      id: current.id,
      draft,
      version: current.version,
      action: saved?.status === 'published' ? 'update' : draft.state === 'draft' ? 'draft' : 'publish',
      merged: true,
    });

  return { saved, setSaved, conflict, setConflict, save, run, saveMerged };
}
