import { useEffect, useRef, useState } from 'react';
import { useTheme, type ConsoleTheme } from '../../lib/theme';
import { previewMessage, type PreviewMessage } from '../../lib/preview-message';
import { Button } from '../../ui/button';
import { Close, Modal } from '../../ui/dialog';

const widths = { phone: 375, desktop: 1280 } as const;
type Width = keyof typeof widths;

export interface PreviewBulletin {
  title: string;
  content: string;
  pinned: boolean;
  publishAt: string;
}

/** The announcement as the public site will show it, before anything is public: the site's own
 * article component in a frame of a phone's or a desktop's width, light or dark. */
export function PreviewDialog({
  open,
  onOpenChange,
  bulletin,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  bulletin: PreviewBulletin;
}) {
  const consoleTheme = useTheme();
  const [theme, setTheme] = useState<ConsoleTheme>(consoleTheme);
  const [width, setWidth] = useState<Width>('phone');
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    if (!open) return;
    const send = () => {
      const message: PreviewMessage = {
        type: previewMessage,
        theme,
        bulletin: {
          id: 'preview',
          title: bulletin.title.trim() === '' ? '（无标题）' : bulletin.title,
          content: bulletin.content,
          pinned: bulletin.pinned,
          createdAt: bulletin.publishAt,
        },
      };
      frame.current?.contentWindow?.postMessage(message, window.location.origin);
    };
    send();
    const ready = (event: MessageEvent<{ type?: string }>) => {
      if (event.origin === window.location.origin && event.data?.type === `${previewMessage}-ready`) send();
    };
    window.addEventListener('message', ready);
    return () => window.removeEventListener('message', ready);
  }, [open, bulletin.title, bulletin.content, bulletin.pinned, bulletin.publishAt, theme]);

  const choice = <T extends string>(value: T, current: T, set: (value: T) => void, label: string) => (
    <button
      type="button"
      aria-pressed={value === current}
      onClick={() => set(value)}
      className={`min-h-9 rounded-md px-3 text-sm ${value === current ? 'bg-brand/20 font-semibold text-fg' : 'text-muted hover:bg-surface-2'}`}
    >
      {label}
    </button>
  );

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      wide
      title="预览"
      description="公告在网站上的样子。预览不会发布任何内容。"
    >
      <div className="flex flex-wrap items-center gap-3">
        <div role="group" aria-label="宽度" className="flex gap-1 rounded-lg border border-line p-1">
          {choice('phone', width, setWidth, '手机')}
          {choice('desktop', width, setWidth, '桌面')}
        </div>
        <div role="group" aria-label="主题" className="flex gap-1 rounded-lg border border-line p-1">
          {choice('light', theme, setTheme, '浅色')}
          {choice('dark', theme, setTheme, '深色')}
        </div>
        <Close asChild>
          <Button className="ms-auto">关闭</Button>
        </Close>
      </div>
      {/* Focusable, so a keyboard can scroll a desktop-wide frame on a narrow screen. */}
      <div
        tabIndex={0}
        role="region"
        aria-label="预览画面"
        className="overflow-auto rounded-xl border border-line bg-surface-2 p-1 sm:p-2"
      >
        <iframe
          ref={frame}
          title="公告预览"
          src="/admin/preview.html"
          // A phone is at most 375 px wide, narrower where the screen is (the console on a phone);
          // a desktop is 1280 px, scrolled sideways on a smaller screen.
          width={widths[width]}
          height={720}
          className={`mx-auto block rounded-lg bg-bg ring-1 ring-line ${width === 'phone' ? 'w-full max-w-[375px]' : 'max-w-none'}`}
        />
      </div>
    </Modal>
  );
}
