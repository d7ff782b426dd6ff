import { useState, type ReactNode } from 'react';
import { Button } from '../../ui/button';
import { Close, Modal } from '../../ui/dialog';

/**
 * The editor's small dialogs (链接, 图片说明; docs/console.md#links): a modal whose form ends in a
 * step (set the link, save the caption, remove the picture) that hands focus back to the text
 * itself, so closing after one does not move focus again; 取消 and Escape return it as Radix does.
 */
export function EditorDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  /** The form, drawn only while open, given `finish`: runs a step, then closes the dialog. */
  children: (finish: (step: () => void) => void) => ReactNode;
}) {
  // Set by a finished step until the dialog has closed.
  const [done, setDone] = useState(false);
  const finish = (step: () => void) => {
    setDone(true);
    step();
    onOpenChange(false);
  };
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      onCloseAutoFocus={(event) => {
        if (done) event.preventDefault();
        setDone(false);
      }}
    >
      {open && children(finish)}
    </Modal>
  );
}

/** The dialog's form: its fields, then `extra` (at the start of the row), 取消 and 确定. */
export function DialogForm({
  onSubmit,
  extra,
  children,
}: {
  onSubmit: () => void;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        // The dialog sits in a portal, but React bubbles its submit to the editor's form.
        event.stopPropagation();
        onSubmit();
      }}
    >
      {children}
      <div className="flex flex-wrap justify-end gap-2">
        {extra}
        <Close asChild>
          <Button>取消</Button>
        </Close>
        <Button type="submit" tone="primary">
          确定
        </Button>
      </div>
    </form>
  );
}
