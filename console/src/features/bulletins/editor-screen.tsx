import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { useLocation } from 'wouter';
import type { ScreenProps } from '../../lib/screen';
import { useDocumentTitle } from '../../lib/document-title';
import { ApiError } from '../../lib/api';
import { useLeaveGuard } from '../../lib/leave-guard';
import { useOperator } from '../../lib/session';
import { LoadProblem } from '../../ui/load-problem';
import { PinnedBadge, Problem, StatusBadge, Waiting } from '../../ui/status';
import { bulletinKeys, getBulletin, publicAddress, useDeleteBulletin, type AdminBulletin } from './api';
import { readKept, useAutosave, type Kept } from './autosave';
import { EditorButtons } from './editor-buttons';
import { EditorDialogs, type EditorDialog } from './editor-dialogs';
import { EditorFields, type BodyText } from './editor-fields';
import { valuesOf, type EditorValues } from './editor-form';
import { toEditorHtml } from './html-paths';
import { RemoteChangeNotice, useRemoteChange } from './remote-changes';
import { RestoreOffer } from './restore-offer';
import { useEditorSave } from './use-editor-save';

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

const fieldsOf = (bulletin: AdminBulletin | undefined) => valuesOf(bulletin, toEditorHtml);

/** The editor: one form (react-hook-form) whose dirty state is what the leave guard and the
 * copy kept in this browser go by (docs/console.md#writing-an-announcement). */
function BulletinEditor({ initial, timeZone }: { initial: AdminBulletin | undefined; timeZone: string }) {
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const me = useOperator()?.name ?? '';
  const form = useForm<EditorValues>({ defaultValues: fieldsOf(initial) });
  const { isDirty, errors } = form.formState;
  const values = { ...form.getValues(), ...useWatch({ control: form.control }) };
  const [body, setBody] = useState<BodyText>({ html: values.html, key: 0 });
  const [dialog, setDialog] = useState<EditorDialog>();
  useLeaveGuard(isDirty);
  const forget = useAutosave(initial?.id, values, isDirty);
  const [kept, setKept] = useState<Kept<EditorValues> | undefined>(() => {
    const found = readKept<EditorValues>(initial?.id);
    return JSON.stringify(found?.value) === JSON.stringify(fieldsOf(initial)) ? undefined : found;
  });

  /** Puts other values in every field, the body too; `unsaved` keeps the saved ones as the
   * form's defaults, so the form is dirty. */
  const fill = (next: EditorValues, unsaved = false) => {
    form.reset(next, { keepDefaultValues: unsaved });
    setBody((old) => ({ html: next.html, key: old.key + 1 }));
  };
  const { saved, setSaved, conflict, setConflict, save, run, saveMerged } = useEditorSave({
    form,
    initial,
    timeZone,
    forget: () => {
      forget();
      setKept(undefined);
    },
    replace: (bulletin) => fill(fieldsOf(bulletin)),
  });
  /** Shows an announcement saved elsewhere (a revision restored, the other side of a conflict). */
  const show = (bulletin: AdminBulletin) => {
    forget();
    setSaved(bulletin);
    fill(fieldsOf(bulletin));
  };
  const remove = useDeleteBulletin({
    onSuccess: () => {
      forget();
      form.reset(form.getValues());
      navigate('/bulletins');
    },
    onError: (error) => form.setError('root', { message: `删除失败：${error.message}` }),
  });

  const change = useRemoteChange(saved?.id, saved?.version, save.isPending || remove.isPending);
  const status = saved?.status;
  return (
    <section aria-labelledby="editor-heading" className="mx-auto flex max-w-4xl flex-col gap-5">
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="editor-heading" className="text-xl font-semibold">
          {saved === undefined ? '新建公告' : '编辑公告'}
        </h1>
        {status !== undefined && <StatusBadge status={status} />}
        {saved?.topup === 1 && <PinnedBadge />}
        {status === 'published' && saved !== undefined && (
          <a
            href={publicAddress(saved.id)}
            target="_blank"
            rel="noopener"
            className="text-sm text-brand-ink underline underline-offset-4"
          >
            在网站上查看<span className="sr-only">（在新标签页打开）</span>
          </a>
        )}
        {isDirty && <span className="text-xs text-muted">有未保存的修改</span>}
      </div>
      <RemoteChangeNotice change={change} me={me} onLoad={show} />
      {kept !== undefined && (
        <RestoreOffer
          at={kept.at}
          onRestore={() => {
            // A copy kept by an older console lacks the end times.
            fill({ ...fieldsOf(saved), ...kept.value }, true);
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
      <FormProvider {...form}>
        <form noValidate className="flex flex-col gap-5" onSubmit={(event) => event.preventDefault()}>
          <EditorFields body={body} timeZone={timeZone} />
          {errors.root?.message !== undefined && <Problem>{errors.root.message}</Problem>}
          <EditorButtons
            status={status}
            saved={saved !== undefined}
            busy={save.isPending || remove.isPending}
            saving={save.isPending}
            onRun={run}
            onDialog={setDialog}
          />
        </form>
      </FormProvider>
      <EditorDialogs
        open={dialog}
        onOpenChange={setDialog}
        values={values}
        timeZone={timeZone}
        saved={saved}
        unsaved={isDirty}
        me={me}
        conflict={conflict}
        busy={save.isPending}
        onUnpublish={() => run('draft')}
        onDelete={(id) => remove.mutate(id)}
        onRestored={(bulletin) => {
          show(bulletin);
          setDialog(undefined);
        }}
        onSaveMerged={(draft) => conflict !== undefined && saveMerged(draft, conflict.current)}
        onTakeTheirs={() => {
          if (conflict === undefined) return;
          show(conflict.current);
          setConflict(undefined);
          client.setQueryData(bulletinKeys.one(conflict.current.id), conflict.current);
        }}
        onCloseConflict={() => setConflict(undefined)}
      />
    </section>
  );
}
