import { ConfirmDialog } from '../../ui/confirm-dialog';

/** Deleting asks first; afterwards a notice offers 撤销, and the trash keeps it for 30 days. */
export function DeleteDialog({
  open,
  onOpenChange,
  title,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="删除这条公告？"
      description={<p>“{title}”会立即从网站、订阅源和置顶栏中消失。30 天内可以在回收站中恢复。</p>}
      confirm="删除"
      tone="danger"
      onConfirm={onConfirm}
    />
  );
}
