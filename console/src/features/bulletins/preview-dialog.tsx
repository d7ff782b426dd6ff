import { languages, type Language } from '@chat-site/contract';
import { Fragment, useEffect, useRef, useState } from 'react';
import { useTheme, type ConsoleTheme } from '../../lib/theme';
import { previewMessage, type PreviewMessage } from '../../lib/preview-message';
import { Button } from '../../ui/button';
import { Close, Modal } from '../../ui/dialog';

const widths = { phone: 375, desktop: 1280 } as const;
const frameHeight = 720;
type Width = keyof typeof widths;

interface Version {
  title: string;
  content: string;
}

export interface PreviewBulletin extends Version {
  pinned: boolean;
  publishAt: string;
  /** The traditional version as its pane holds it (empty until the first save makes it) and
   * the English (empty: none). */
  traditional: Version;
  english: Version;
}

const languageNames: Record<Language, string> = { 'zh-CN': '简体', 'zh-TW': '繁體', en: 'English' };

/** What the site in `language` shows: the version in it, else the simplified, said to be
 * (docs/behaviour.md#announcements-in-every-language). */
function versionIn(bulletin: PreviewBulletin, language: Language): Version & { language: Language } {
  if (language === 'zh-TW' && bulletin.traditional.title.trim() !== '') return { ...bulletin.traditional, language };
  if (language === 'en' && bulletin.english.title.trim() !== '') return { ...bulletin.english, language };
  return { title: bulletin.title, content: bulletin.content, language: 'zh-CN' };
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
  const [language, setLanguage] = useState<Language>('zh-CN');
  const shown = versionIn(bulletin, language);
  const frame = useRef<HTMLIFrameElement>(null);
  // A state, not a ref: the dialog's content mounts after this component's effects have run.
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const scale = useFitScale(box, widths.desktop);

  useEffect(() => {
    if (!open) return;
    const send = () => {
      const message: PreviewMessage = {
        type: previewMessage,
        theme,
        language,
        bulletin: {
          id: 'preview',
          title: shown.title.trim() === '' ? '（无标题）' : shown.title,
          content: shown.content,
          pinned: bulletin.pinned,
          createdAt: bulletin.publishAt,
          language: shown.language,
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
  }, [open, shown.title, shown.content, shown.language, bulletin.pinned, bulletin.publishAt, theme, language]);

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
        <div role="group" aria-label="网站语言" className="flex gap-1 rounded-lg border border-line p-1">
          {languages.map((each) => (
            <Fragment key={each}>{choice(each, language, setLanguage, languageNames[each])}</Fragment>
          ))}
        </div>
        <Close asChild>
          <Button className="ms-auto">关闭</Button>
        </Close>
      </div>
      {width === 'desktop' && scale < 1 && (
        <p className="text-xs text-muted">桌面宽度 1280 像素，按 {Math.round(scale * 100)}% 缩小显示</p>
      )}
      {/* Focusable, so a keyboard can scroll the frame where it is taller than the screen. */}
      <div
        ref={setBox}
        tabIndex={0}
        role="region"
        aria-label="预览画面"
        className="overflow-auto rounded-xl border border-line bg-surface-2 p-1 sm:p-2"
      >
        {/* A desktop's 1280 px page is drawn whole, scaled down to the box, never cut. */}
        <div
          className="mx-auto"
          style={width === 'desktop' ? { width: widths.desktop * scale, height: frameHeight * scale } : undefined}
        >
          <iframe
            ref={frame}
            title="公告预览"
            src="/admin/preview.html"
            // A phone is at most 375 px wide, narrower where the screen is (the console on a phone).
            width={widths[width]}
            height={frameHeight}
            style={width === 'desktop' ? { transform: `scale(${scale})`, transformOrigin: '0 0' } : undefined}
            className={`mx-auto block rounded-lg bg-bg ring-1 ring-line ${width === 'phone' ? 'w-full max-w-[375px]' : 'max-w-none'}`}
          />
        </div>
      </div>
    </Modal>
  );
}

/** How much a `width`-wide page is scaled to fit the box's inner width (1 when it fits). */
function useFitScale(element: HTMLDivElement | null, width: number): number {
  const [scale, setScale] = useState(1);
  useEffect(() => {
    if (element === null) return;
    const measure = () => {
      const style = getComputedStyle(element);
      const inner = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      setScale(Math.min(1, inner / width));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, width]);
  return scale;
}
