import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { buttonClass } from '../../ui/button';

/** Deleting asks first; afterwards a notice offers 撤销 for as long as the server keeps it. */
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
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <AlertDialog.Content className="fixed inset-x-3 top-[20vh] z-50 mx-auto flex max-w-md flex-col gap-4 rounded-2xl border border-line bg-bg p-5 text-fg shadow-xl">
          <AlertDialog.Title className="text-lg font-semibold">删除这条公告？</AlertDialog.Title>
          <AlertDialog.Description className="text-sm text-muted">
            “{title}”会立即从网站、订阅源和置顶栏中消失。10 分钟内可以撤销。
          </AlertDialog.Description>
          <div className="flex justify-end gap-2">
            <AlertDialog.Cancel className={buttonClass('secondary')}>取消</AlertDialog.Cancel>
            <AlertDialog.Action className={buttonClass('danger')} onClick={onConfirm}>
              删除
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
