/**
 * The guide shown inside a chat app's built-in browser instead of a download the app would leave
 * dead (docs/site.md#in-app-browsers): an arrow at the app's ⋯ menu in the top right
 * corner, the two taps that open the page in the phone's browser, and the address to copy. On
 * a computer (WeChat for Windows or Mac) also a QR code to the download screen, for a phone.
 * A chunk of its own: only such visitors, and only once they tap, ever fetch it.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { buttonClass } from '../../../components/ui/button';
import { isDesktop, readDeviceSignals } from '../../../lib/platform';
import { CopyButton } from '../components/copy-button';
import { QrCode } from '../components/download-qr';
import { useGuideText } from './messages';

const focusable = 'a[href], button, input, [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab among the guide's own controls, as a modal dialog does. */
function keepFocusIn(event: KeyboardEvent, panel: HTMLElement | null) {
  const items = [...(panel?.querySelectorAll<HTMLElement>(focusable) ?? [])];
  const [first, last] = [items[0], items.at(-1)];
  if (first === undefined || last === undefined) return;
  const inside = panel?.contains(document.activeElement) && document.activeElement !== panel;
  if (event.shiftKey && (document.activeElement === first || !inside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
    event.preventDefault();
    first.focus();
  }
}

function Step({ number, children }: { number: number; children: React.ReactNode }) {
  return (
    <li className="flex items-center gap-3">
      <span className="grid size-7 shrink-0 place-items-center rounded-full bg-brand text-sm font-semibold text-brand-fg">
        {number}
      </span>
      <span className="font-medium">{children}</span>
    </li>
  );
}

export default function Guide({ href, onClose }: { href: string; onClose: () => void }) {
  const text = useGuideText();
  const panel = useRef<HTMLDivElement>(null);
  const address = useRef<HTMLElement>(null);
  const device = readDeviceSignals();
  const ios = /iPhone|iPad|iPod/i.test(device.userAgent);
  useEffect(() => panel.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'Tab') keepFocusIn(event, panel.current);
  };
  return createPortal(
    <div className="fixed inset-0 z-50 overflow-y-auto bg-black/75 px-4 pt-24 pb-10" onKeyDown={onKeyDown}>
      {/* Points past the page's top edge at the app's own ⋯ button. */}
      <svg
        aria-hidden="true"
        viewBox="0 0 80 80"
        className="absolute top-2 right-5 size-20 text-white"
        fill="none"
        stroke="currentColor"
        strokeWidth="4"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M12 74 C 20 40, 40 22, 66 12" />
        <path d="M48 8 L 68 11 L 60 29" />
      </svg>
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby="in-app-guide-title"
        aria-describedby="in-app-guide-why"
        tabIndex={-1}
        data-testid="in-app-guide"
        className="mx-auto max-w-sm rounded-3xl border border-line bg-surface p-6 text-fg shadow-lg outline-none"
      >
        <h2 id="in-app-guide-title" className="text-xl font-bold">
          {ios ? text.titleSafari : text.titleBrowser}
        </h2>
        <p id="in-app-guide-why" className="mt-2 text-sm text-muted">
          {text.why}
        </p>
        <ol className="mt-4 flex flex-col gap-3">
          <Step number={1}>{text.stepMenu}</Step>
          <Step number={2}>{ios ? text.stepSafari : text.stepBrowser}</Step>
        </ol>
        <p className="mt-6 text-sm text-muted">{text.copyHint}</p>
        <div className="mt-2 flex items-center gap-2 rounded-2xl bg-surface-2 px-3 py-2">
          <code ref={address} className="min-w-0 flex-1 truncate text-xs" title={href}>
            {href}
          </code>
          <CopyButton text={href} label={text.copyLabel} selectOnFailure={() => address.current} />
        </div>
        {isDesktop(device) && (
          <div className="mt-4 flex items-center gap-4">
            <QrCode url={`${location.origin}${location.pathname}#/download`} className="size-28" />
            <p className="text-sm text-muted">{text.qr}</p>
          </div>
        )}
        <button type="button" onClick={onClose} className={buttonClass({}, 'mt-6 w-full')}>
          {text.close}
        </button>
      </div>
    </div>,
    document.body,
  );
}
