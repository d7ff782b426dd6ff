import { fromFieldTime, wallClockNow } from '../../lib/wire-time';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import type { AdminBulletin, BulletinDraft } from './api';
import { ConflictDialog } from './conflict-dialog';
import { DeleteDialog } from './delete-dialog';
import type { EditorValues } from './editor-form';
import { HistoryDialog } from './history-dialog';
import { fromEditorHtml } from './html-paths';
import { PreviewDialog } from './preview-dialog';
import type { Conflict } from './use-editor-save';

/** The editor's dialogs its buttons open, one at a time; the conflict opens by itself. */
export type EditorDialog = 'preview' | 'unpublish' | 'history' | 'delete';

export function EditorDialogs({
  open,
  onOpenChange,
  values,
  timeZone,
  saved,
  unsaved,
  me,
  conflict,
  busy,
  onUnpublish,
  onDelete,
  onRestored,
  onSaveMerged,
  onTakeTheirs,
  onCloseConflict,
}: {
  open: EditorDialog | undefined;
  onOpenChange: (open: EditorDialog | undefined) => void;
  values: EditorValues;
  timeZone: string;
  saved: AdminBulletin | undefined;
  unsaved: boolean;
  me: string;
  conflict: Conflict | undefined;
  busy: boolean;
  onUnpublish: () => void;
  onDelete: (id: number) => void;
  onRestored: (bulletin: AdminBulletin) => void;
  onSaveMerged: (draft: BulletinDraft) => void;
  onTakeTheirs: () => void;
  onCloseConflict: () => void;
}) {
  const toggle = (dialog: EditorDialog) => (next: boolean) => onOpenChange(next ? dialog : undefined);
  return (
    <>
      <PreviewDialog
        open={open === 'preview'}
        onOpenChange={toggle('preview')}
        bulletin={{
          title: values.title,
          content: fromEditorHtml(values.html),
          pinned: values.pinned,
          publishAt: values.when === '' ? wallClockNow(timeZone) : fromFieldTime(values.when),
          traditional: { title: values.titleTw, content: fromEditorHtml(values.htmlTw) },
          english: { title: values.titleEn, content: fromEditorHtml(values.htmlEn) },
        }}
      />
      <ConfirmDialog
        open={open === 'unpublish'}
        onOpenChange={toggle('unpublish')}
        title="撤回为草稿？"
        description={
          <p>“{saved?.title}”会立即从网站、订阅源和置顶栏中消失，保存为草稿，连同这次的修改。之后可以再次发布。</p>
        }
        confirm="撤回为草稿"
        tone="danger"
        onConfirm={onUnpublish}
      />
      {saved !== undefined && (
        <HistoryDialog
          bulletin={saved}
          unsaved={unsaved}
          open={open === 'history'}
          onOpenChange={toggle('history')}
          onRestored={onRestored}
        />
      )}
      {saved !== undefined && (
        <DeleteDialog
          open={open === 'delete'}
          onOpenChange={toggle('delete')}
          title={saved.title}
          onConfirm={() => onDelete(saved.id)}
        />
      )}
      {conflict !== undefined && (
        <ConflictDialog
          mine={conflict.mine}
          current={conflict.current}
          savedBy={conflict.savedBy}
          me={me}
          busy={busy}
          onSave={onSaveMerged}
          onTakeTheirs={onTakeTheirs}
          onClose={onCloseConflict}
        />
      )}
    </>
  );
}
