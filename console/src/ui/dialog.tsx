import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

/** A modal with a title, for the console's small forms and choices (Radix Dialog: focus kept
 * inside, Escape closes, focus returns where it came from). */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  wide = false,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content
          className={`fixed inset-x-3 top-[5vh] z-50 mx-auto flex max-h-[90vh] flex-col gap-4 overflow-y-auto rounded-2xl border border-line bg-bg p-5 text-fg shadow-xl ${wide ? 'max-w-5xl' : 'max-w-md'}`}
          {...(description === undefined && { 'aria-describedby': undefined })}
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
