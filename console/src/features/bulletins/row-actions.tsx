import { useEffect, useId, useRef, useState } from 'react';
import { publicAddress, type AdminBulletin } from './api';
import { DeleteDialog } from './delete-dialog';
import { useRowActions } from './use-row-actions';

const itemClass =
  'flex min-h-10 w-full items-center px-3 text-start text-sm whitespace-nowrap text-fg hover:bg-surface-2 focus-visible:bg-surface-2';

/**
 * A row's actions behind one button, so they fit a phone: 置顶 or 取消置顶, 复制, 在网站上查看 for a
 * published one, and 删除 (asked first, then undoable). A disclosure, not an ARIA menu: each
 * action is a plain button or link reached with Tab; Escape closes it and returns to the button.
 */
export function RowActions({ bulletin }: { bulletin: AdminBulletin }) {
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { pin, remove, duplicate } = useRowActions();
  const panelId = useId();
  const box = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const act = (run: () => void) => () => {
    setOpen(false);
    run();
  };
  const busy = pin.isPending || remove.isPending || duplicate.isPending;

  return (
    <div
      ref={box}
      className="relative shrink-0"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          setOpen(false);
          trigger.current?.focus();
        }
      }}
      onBlur={(event) => {
        if (!box.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={trigger}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`“${bulletin.title}”的操作`}
        disabled={busy}
        onClick={() => setOpen((was) => !was)}
        className="inline-flex min-h-10 min-w-10 items-center justify-center rounded-lg border border-line text-lg leading-none text-muted hover:bg-surface-2 hover:text-fg disabled:opacity-50"
      >
        <span aria-hidden="true">⋯</span>
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute end-0 top-full z-20 mt-1 min-w-36 overflow-hidden rounded-xl border border-line bg-surface py-1 shadow-lg"
      >
        <button type="button" className={itemClass} onClick={act(() => pin.mutate(bulletin))}>
          {bulletin.topup === 1 ? '取消置顶' : '置顶'}
        </button>
        <button type="button" className={itemClass} onClick={act(() => duplicate.mutate(bulletin.id))}>
          复制
        </button>
        {bulletin.status === 'published' && (
          <a
            href={publicAddress(bulletin.id)}
            target="_blank"
            rel="noopener"
            className={itemClass}
            onClick={() => setOpen(false)}
          >
            在网站上查看
          </a>
        )}
        <button type="button" className={`${itemClass} text-danger`} onClick={act(() => setDeleting(true))}>
          删除
        </button>
      </div>
      <DeleteDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={bulletin.title}
        onConfirm={() => remove.mutate(bulletin.id)}
      />
    </div>
  );
}
