import * as Dialog from '@radix-ui/react-dialog';
import type { KeyboardEvent, ReactNode } from 'react';
import { useDialogFocus } from './focus-return';

/** Escape closes a dialog from the moment it has focus. Radix listens for Escape only once it
 * has drawn the dialog again as the top layer, a task or more after focus moved in, so a key
 * pressed in between was lost (docs/console.md#keyboard). When Radix has handled the key it has
 * prevented its default, and this does nothing. */
export function closeOnEscape(onOpenChange: (open: boolean) => void) {
  return (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    onOpenChange(false);
  };
}

/** A modal with a title, for the console's small forms and choices (Radix Dialog: focus kept
 * inside, Escape closes). Closed, focus goes back to the control that opened it, or to the
 * screen's heading when that control is gone (ui/focus-return.ts). */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  wide = false,
  onCloseAutoFocus,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  wide?: boolean;
  /** Called first when the dialog closes; preventDefault() there keeps focus where it is. */
  onCloseAutoFocus?: (event: Event) => void;
  children: ReactNode;
}) {
  const focus = useDialogFocus(open);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content
          className={`fixed z-50 mx-auto flex flex-col gap-4 overflow-y-auto border border-line bg-bg text-fg shadow-xl ${wide ? 'inset-0 max-w-5xl p-3 sm:inset-x-3 sm:top-[5vh] sm:bottom-auto sm:max-h-[90vh] sm:rounded-2xl sm:p-5' : 'inset-x-3 top-[5vh] max-h-[90vh] max-w-md rounded-2xl p-5'}`}
          {...(description === undefined && { 'aria-describedby': undefined })}
          onOpenAutoFocus={focus.opened}
          onKeyDown={closeOnEscape(onOpenChange)}
          onCloseAutoFocus={(event) => {
            onCloseAutoFocus?.(event);
            if (event.defaultPrevented) return;
            event.preventDefault();
            focus.closed();
          }}
        >
          <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
          {description !== undefined && (
            <Dialog.Description className="text-sm text-muted">{description}</Dialog.Description>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export const Close = Dialog.Close;
