import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { ScreenProps } from '../../lib/screen';
import { useDocumentTitle } from '../../lib/document-title';
import { ApiError } from '../../lib/api';
import { useLeaveGuard } from '../../lib/leave-guard';
import { queryClient } from '../../lib/query';
import { useOperator } from '../../lib/session';
import { fromFieldTime, toFieldTime, wallClockNow } from '../../lib/wire-time';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Field, inputClass } from '../../ui/field';
import { focusAfterWork } from '../../ui/focus-return';
import { LoadProblem } from '../../ui/load-problem';
import { PinnedBadge, Problem, StatusBadge, Waiting } from '../../ui/status';
import { useNotify } from '../../ui/toasts';
import {
  bulletinKeys,
  createBulletin,
  getBulletin,
  removeBulletin,
  restoreBulletin,
  saveBulletin,
  type AdminBulletin,
  type BulletinDraft,
} from './api';
import { readKept, useAutosave, type Kept } from './autosave';
import { ConflictDialog } from './conflict-dialog';
import { DeleteDialog } from './delete-dialog';
import { HistoryDialog } from './history-dialog';
import { EndTimeFields, endTimeProblem, type EndTimeField } from './end-time-fields';
import { fromEditorHtml, isEmptyHtml, toEditorHtml } from './html-paths';
import { PreviewDialog } from './preview-dialog';
import { RestoreOffer } from './restore-offer';
import { RichText } from './rich-text';

/** Opens an announcement (or a new one) in the editor once it has loaded. */
export function BulletinEditorScreen({ params, operator }: ScreenProps) {
  const id = params.id === undefined ? undefined : Number(params.id);
  const valid = id === undefined || (Number.isSafeInteger(id) && id > 0);
  const existing = useQuery({
    queryKey: bulletinKeys.one(id ?? 0),
    queryFn: ({ signal }) => getBulletin(id ?? 0, signal),
    enabled: id !== undefined && valid,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  useDocumentTitle(id === undefined ? '新建公告' : '编辑公告');
  if (!valid) return <Problem>没有这条公告</Problem>;
  if (id !== undefined && existing.isPending) return <Waiting />;
  if (existing.isError) {
    const missing = existing.error instanceof ApiError && existing.error.status === 404;
    if (missing) return <Problem>没有这条公告，它可能已被删除</Problem>;
    return <LoadProblem what="公告" error={existing.error} onRetry={() => void existing.refetch()} />;
  }
  return <BulletinEditor key={id ?? 'new'} initial={existing.data} timeZone={operator.time_zone} />;
}

type Action = 'draft' | 'publish' | 'schedule' | 'update';

interface Form {
  title: string;
  html: string;
  pinned: boolean;
  /** The datetime-local field's value: "" for "at once". */
  when: string;
  /** 下线时间 and 置顶截止, the same way ("" for never). */
  unpublishAt: string;
  unpinAt: string;
}

const formOf = (bulletin: AdminBulletin | undefined): Form => ({
  title: bulletin?.title ?? '',
  html: toEditorHtml(bulletin?.content ?? ''),
  pinned: bulletin?.topup === 1,
  when: bulletin === undefined || bulletin.status === 'draft' ? '' : toFieldTime(bulletin.publish_at),
  unpublishAt: bulletin?.unpublish_at == null ? '' : toFieldTime(bulletin.unpublish_at),
  unpinAt: bulletin?.unpin_at == null ? '' : toFieldTime(bulletin.unpin_at),
});

function BulletinEditor({ initial, timeZone }: { initial: AdminBulletin | undefined; timeZone: string }) {
  const [, navigate] = useLocation();
  const notify = useNotify();
  const [saved, setSaved] = useState<AdminBulletin | undefined>(initial);
  const [form, setForm] = useState<Form>(() => formOf(initial));
  const [resetKey, setResetKey] = useState(0);
  const [dirty, setDirty] = useState(false);
  const [problem, setProblem] = useState<{ field?: 'title' | 'when' | EndTimeField; text: string }>();
  const [conflict, setConflict] = useState<{ mine: BulletinDraft; current: AdminBulletin; savedBy: string | null }>();
  const me = useOperator()?.name ?? '';
  const [previewOpen, setPreviewOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [unpublishOpen, setUnpublishOpen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const titleRef = useRef<HTMLInputElement>(null);
  const focusBack = useRef<() => void>(undefined);
  useLeaveGuard(dirty);
  const forget = useAutosave(initial?.id, form, dirty);
  const [kept, setKept] = useState<Kept<Form> | undefined>(() => {
    const found = readKept<Form>(initial?.id);
    return JSON.stringify(found?.value) === JSON.stringify(formOf(initial)) ? undefined : found;
  });

  const edit = (patch: Partial<Form>) => {
    setForm((old) => ({ ...old, ...patch }));
    setDirty(true);
  };

  const draftFor = (action: Action): BulletinDraft | undefined => {
    const title = form.title.trim();
    if (title === '') {
      setProblem({ field: 'title', text: '请填写标题' });
      titleRef.current?.focus();
      return undefined;
    }
    const when = form.when === '' ? null : fromFieldTime(form.when);
    if (action === 'schedule' && (when === null || when <= wallClockNow(timeZone))) {
      setProblem({ field: 'when', text: '定时发布需要一个将来的发布时间' });
      return undefined;
    }
    const content = isEmptyHtml(form.html) ? '' : fromEditorHtml(form.html);
    const state = action === 'draft' ? 'draft' : 'published';
    // 发布 publishes now; the others keep the time in the field (none: now, for a draft: none).
    const publishAt = action === 'publish' ? null : when;
    const now = wallClockNow(timeZone);
    const ends = { unpublishAt: form.unpublishAt, unpinAt: form.pinned ? form.unpinAt : '' };
    const endProblem = endTimeProblem(ends, publishAt ?? now, now);
    if (endProblem !== undefined) {
      setProblem(endProblem);
      return undefined;
    }
    const end = (value: string) => (value === '' ? null : fromFieldTime(value));
    return {
      title,
      content,
      topup: form.pinned ? 1 : 0,
      state,
      publish_at: publishAt,
      unpublish_at: end(ends.unpublishAt),
      unpin_at: end(ends.unpinAt),
    };
  };

  const save = useMutation({
    mutationFn: async ({ draft, version }: { draft: BulletinDraft; version?: number; action: Action }) => {
      if (saved === undefined) {
        const created = await createBulletin(draft);
        return getBulletin(created.id);
      }
      return saveBulletin(saved.id, draft, version ?? saved.version);
    },
    onSuccess: (bulletin, { action }) => {
      forget();
      setKept(undefined);
      setSaved(bulletin);
      setDirty(false);
      setConflict(undefined);
      setProblem(undefined);
      setForm((old) => ({
        ...old,
        when: bulletin.status === 'draft' ? old.when : toFieldTime(bulletin.publish_at),
        unpublishAt: formOf(bulletin).unpublishAt,
        unpinAt: formOf(bulletin).unpinAt,
      }));
      queryClient.setQueryData(bulletinKeys.one(bulletin.id), bulletin);
      void queryClient.invalidateQueries({ queryKey: [...bulletinKeys.all, 'list'] });
      const said = {
        draft: saved?.status === 'published' ? '已撤回为草稿' : '草稿已保存',
        publish: '已发布',
        schedule: `已定时，将于 ${bulletin.publish_at.slice(0, 16)} 发布`,
        update: '修改已保存',
      };
      notify({ text: said[action] });
      if (saved === undefined) navigate(`/bulletins/${bulletin.id}`, { replace: true });
    },
    onError: (error, { draft }) => {
      if (error instanceof ApiError && error.status === 409 && typeof error.body.current === 'object') {
        const savedBy = typeof error.body.saved_by === 'string' ? error.body.saved_by : null;
        setConflict({ mine: draft, current: error.body.current as AdminBulletin, savedBy });
        return;
      }
      setProblem({ text: error instanceof ApiError ? `保存失败：${error.message}` : '保存失败，请重试' });
    },
    // Here rather than in mutate's own callbacks, which a new announcement's screen change drops.
    onSettled: () => {
      focusBack.current?.();
      focusBack.current = undefined;
    },
  });

  const run = (action: Action) => {
    setProblem(undefined);
    const draft = draftFor(action);
    if (draft === undefined) return;
    // The pressed button is disabled while saving; focus comes back to it (docs/console.md#keyboard).
    focusBack.current = focusAfterWork();
    save.mutate({ draft, action });
  };

  const remove = useMutation({
    mutationFn: (id: number) => removeBulletin(id),
    onSuccess: (_nothing, id) => {
      forget();
      setDirty(false);
      // Not asked again while this screen closes: it is gone.
      queryClient.removeQueries({ queryKey: bulletinKeys.one(id) });
      void queryClient.invalidateQueries({ queryKey: [...bulletinKeys.all, 'list'] });
      navigate('/bulletins');
      notify({
        text: '公告已删除',
        action: {
          label: '撤销',
          run: () => {
            restoreBulletin(id)
              .then(() => {
                void queryClient.invalidateQueries({ queryKey: bulletinKeys.all });
                notify({ text: '公告已恢复' });
              })
              .catch((error: unknown) => notify({ text: `撤销失败：${error instanceof Error ? error.message : ''}` }));
          },
        },
      });
    },
    onError: (error) => setProblem({ text: `删除失败：${error.message}` }),
  });

  const status = saved?.status;
  const busy = save.isPending || remove.isPending;
  return (
    <section aria-labelledby="editor-heading" className="mx-auto flex max-w-4xl flex-col gap-5">
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="editor-heading" className="text-xl font-semibold">
          {saved === undefined ? '新建公告' : '编辑公告'}
        </h1>
        {status !== undefined && <StatusBadge status={status} />}
        {saved?.topup === 1 && <PinnedBadge />}
        {dirty && <span className="text-xs text-muted">有未保存的修改</span>}
      </div>
      {kept !== undefined && (
        <RestoreOffer
          at={kept.at}
          onRestore={() => {
            // A copy kept by an older console lacks the end times.
            setForm({ ...formOf(saved), ...kept.value });
            setResetKey((key) => key + 1);
            setDirty(true);
            setKept(undefined);
          }}
          onDiscard={() => {
            forget();
            setKept(undefined);
          }}
        />
      )}
      {/* Only the buttons below publish or save: Enter in a field never does
          (docs/console.md#writing-an-announcement). */}
      <form noValidate className="flex flex-col gap-5" onSubmit={(event) => event.preventDefault()}>
        <Field id="bulletin-title" label="标题" error={problem?.field === 'title' ? problem.text : undefined}>
          <input
            ref={titleRef}
            id="bulletin-title"
            value={form.title}
            maxLength={200}
            onChange={(event) => edit({ title: event.target.value })}
            onKeyDown={(event) => {
              // Enter goes on to the body, as in a writing app; while an input method is
              // composing, Enter is its own (it confirms the characters).
              if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
              event.preventDefault();
              document.getElementById('bulletin-body')?.focus();
            }}
            className={inputClass}
            aria-invalid={problem?.field === 'title'}
          />
        </Field>
        <div className="flex flex-col gap-1.5">
          <span id="bulletin-body-label" className="text-sm font-medium">
            正文
          </span>
          <RichText
            id="bulletin-body"
            initialHtml={form.html}
            resetKey={resetKey}
            describedBy="bulletin-body-hint"
            onChange={(html) => edit({ html })}
          />
          <p id="bulletin-body-hint" className="text-xs text-muted">
            可直接粘贴或拖入图片；从 Word
            或网页粘贴时保留标题、列表、加粗、链接和表格，其余格式会被去掉。选中图片后按回车或点“图片说明”，可填写说明文字或删除图片。
          </p>
        </div>
        <div className="grid gap-5 md:grid-cols-2">
          <Field
            id="bulletin-when"
            label="发布时间"
            hint={`服务器时间（${timeZone}）。留空则在点“发布”时立即发布。`}
            error={problem?.field === 'when' ? problem.text : undefined}
          >
            <input
              id="bulletin-when"
              type="datetime-local"
              value={form.when}
              onChange={(event) => edit({ when: event.target.value })}
              className={inputClass}
              aria-describedby="bulletin-when-hint"
              aria-invalid={problem?.field === 'when'}
            />
          </Field>
          <label className="flex min-h-10 items-center gap-3 self-start md:mt-7">
            <input
              type="checkbox"
              checked={form.pinned}
              onChange={(event) => edit({ pinned: event.target.checked })}
              className="size-5 accent-brand"
            />
            <span className="text-sm font-medium">置顶</span>
          </label>
        </div>
        <EndTimeFields
          times={form}
          pinned={form.pinned}
          timeZone={timeZone}
          problem={
            problem?.field === 'unpublish' || problem?.field === 'unpin'
              ? { ...problem, field: problem.field }
              : undefined
          }
          onChange={edit}
        />
        {problem !== undefined && problem.field === undefined && <Problem>{problem.text}</Problem>}
        <div className="flex flex-wrap gap-2 border-t border-line pt-5">
          {status === 'published' ? (
            <Button tone="primary" disabled={busy} onClick={() => run('update')}>
              保存修改
            </Button>
          ) : (
            <Button tone="primary" disabled={busy} onClick={() => run('publish')}>
              发布
            </Button>
          )}
          <Button disabled={busy} onClick={() => run('schedule')}>
            定时发布
          </Button>
          {status === 'published' ? (
            <Button disabled={busy} onClick={() => setUnpublishOpen(true)}>
              撤回为草稿
            </Button>
          ) : (
            <Button disabled={busy} onClick={() => run('draft')}>
              保存草稿
            </Button>
          )}
          <Button onClick={() => setPreviewOpen(true)}>预览</Button>
          {saved !== undefined && <Button onClick={() => setHistoryOpen(true)}>历史版本</Button>}
          {saved !== undefined && (
            <Button tone="danger" className="sm:ms-auto" disabled={busy} onClick={() => setDeleteOpen(true)}>
              删除
            </Button>
          )}
        </div>
      </form>
      <PreviewDialog
        open={previewOpen}
        onOpenChange={setPreviewOpen}
        bulletin={{
          title: form.title,
          content: fromEditorHtml(form.html),
          pinned: form.pinned,
          publishAt: form.when === '' ? wallClockNow(timeZone) : fromFieldTime(form.when),
        }}
      />
      <ConfirmDialog
        open={unpublishOpen}
        onOpenChange={setUnpublishOpen}
        title="撤回为草稿？"
        description={
          <p>“{saved?.title}”会立即从网站、订阅源和置顶栏中消失，保存为草稿，连同这次的修改。之后可以再次发布。</p>
        }
        confirm="撤回为草稿"
        tone="danger"
        onConfirm={() => run('draft')}
      />
      {saved !== undefined && (
        <HistoryDialog
          bulletin={saved}
          unsaved={dirty}
          open={historyOpen}
          onOpenChange={setHistoryOpen}
          onRestored={(bulletin, revision) => {
            forget();
            setSaved(bulletin);
            setForm(formOf(bulletin));
            setResetKey((key) => key + 1);
            setDirty(false);
            setHistoryOpen(false);
            queryClient.setQueryData(bulletinKeys.one(bulletin.id), bulletin);
            void queryClient.invalidateQueries({ queryKey: [...bulletinKeys.all, 'list'] });
            notify({ text: `已恢复到第 ${revision.version} 版，保存为第 ${bulletin.version} 版` });
          }}
        />
      )}
      {saved !== undefined && (
        <DeleteDialog
          open={deleteOpen}
          onOpenChange={setDeleteOpen}
          title={saved.title}
          onConfirm={() => remove.mutate(saved.id)}
        />
      )}
      {conflict !== undefined && (
        <ConflictDialog
          mine={conflict.mine}
          current={conflict.current}
          savedBy={conflict.savedBy}
          me={me}
          busy={save.isPending}
          onSave={(draft) =>
            save.mutate(
              {
                draft,
                version: conflict.current.version,
                action: status === 'published' ? 'update' : draft.state === 'draft' ? 'draft' : 'publish',
              },
              {
                // The editor shows what was saved: the parts taken from the other side too.
                onSuccess: (bulletin) => {
                  setForm(formOf(bulletin));
                  setResetKey((key) => key + 1);
                },
              },
            )
          }
          onTakeTheirs={() => {
            forget();
            setSaved(conflict.current);
            setForm(formOf(conflict.current));
            setResetKey((key) => key + 1);
            setDirty(false);
            setConflict(undefined);
            queryClient.setQueryData(bulletinKeys.one(conflict.current.id), conflict.current);
          }}
          onClose={() => setConflict(undefined)}
        />
      )}
    </section>
  );
}
