import type { BulletinStatus } from '../../ui/status';
import { Button } from '../../ui/button';
import type { EditorDialog } from './editor-dialogs';
import type { Action } from './editor-form';

/** The editor's buttons: the only way it saves or publishes. A published announcement offers
 * 保存修改 and 撤回为草稿 (asked first); the others 发布 and 保存草稿. */
export function EditorButtons({
  status,
  saved,
  busy,
  saving,
  onRun,
  onDialog,
}: {
  status: BulletinStatus | undefined;
  /** It exists on the server: it has a history and can be deleted. */
  saved: boolean;
  busy: boolean;
  /** A save is on its way: said beside the buttons, which wait for it. */
  saving: boolean;
  onRun: (action: Action) => void;
  onDialog: (dialog: EditorDialog) => void;
}) {
  const published = status === 'published';
  return (
    <div className="flex flex-wrap gap-2 border-t border-line pt-5">
      <Button tone="primary" disabled={busy} onClick={() => onRun(published ? 'update' : 'publish')}>
        {published ? '保存修改' : '发布'}
      </Button>
      <Button disabled={busy} onClick={() => onRun('schedule')}>
        定时发布
      </Button>
      <Button disabled={busy} onClick={() => (published ? onDialog('unpublish') : onRun('draft'))}>
        {published ? '撤回为草稿' : '保存草稿'}
      </Button>
      <Button onClick={() => onDialog('preview')}>预览</Button>
      {saved && <Button onClick={() => onDialog('history')}>历史版本</Button>}
      <span role="status" className="self-center text-sm text-muted">
        {saving ? '正在保存…' : ''}
      </span>
      {saved && (
        <Button tone="danger" className="sm:ms-auto" disabled={busy} onClick={() => onDialog('delete')}>
          删除
        </Button>
      )}
    </div>
  );
}
