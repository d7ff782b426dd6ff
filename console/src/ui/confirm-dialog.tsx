import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { ReactNode } from 'react';
import { buttonClass } from './button';
import { closeOnEscape } from './dialog';
import { useDialogFocus } from './focus-return';

/** Asks before a step that changes what visitors see or throws work away (Radix AlertDialog:
 * focus starts on the cancel button, Escape cancels). Closed, focus goes back to the control
 * that asked, once its work lets it, or to the screen's heading (ui/focus-return.ts). */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirm,
  cancel = '取消',
  tone = 'primary',
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirm: string;
  cancel?: string;
  tone?: 'primary' | 'danger';
  onConfirm: () => void;
}) {
  const focus = useDialogFocus(open);
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <AlertDialog.Content
          className="fixed inset-x-3 top-[20vh] z-50 mx-auto flex max-w-md flex-col gap-4 rounded-2xl border border-line bg-bg p-5 text-fg shadow-xl"
          onOpenAutoFocus={focus.opened}
          onKeyDown={closeOnEscape(onOpenChange)}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            focus.closed();
          }}
        >
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="flex flex-col gap-2 text-sm text-muted">{description}</div>
          </AlertDialog.Description>
          <div className="flex flex-wrap justify-end gap-2">
            <AlertDialog.Cancel className={buttonClass('secondary')}>{cancel}</AlertDialog.Cancel>
            <AlertDialog.Action className={buttonClass(tone)} onClick={onConfirm}>
              {confirm}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
