import * as Toast from '@radix-ui/react-toast';
import { createContext, use, useCallback, useMemo, useState, type ReactNode } from 'react';

export interface Notice {
  text: string;
  /** A button in the notice, such as 撤销 after a deletion. */
  action?: { label: string; run: () => void };
  /** How long it stays, in milliseconds (an action's notice stays longer). */
  duration?: number;
}

const NotifyContext = createContext<(notice: Notice) => void>(() => undefined);

/** Short notices at the screen's edge, announced to screen readers (Radix Toast). */
export function Toasts({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<(Notice & { id: number })[]>([]);
  const notify = useCallback((notice: Notice) => {
    setNotices((old) => [...old.slice(-2), { ...notice, id: Date.now() + Math.random() }]);
  }, []);
  const drop = useCallback((id: number) => setNotices((old) => old.filter((notice) => notice.id !== id)), []);
  const value = useMemo(() => notify, [notify]);
  return (
    <NotifyContext value={value}>
      <Toast.Provider label="通知" swipeDirection="down">
        {children}
        {notices.map((notice) => (
          <Toast.Root
            key={notice.id}
            duration={notice.duration ?? (notice.action === undefined ? 4_000 : 30_000)}
            onOpenChange={(open) => {
              if (!open) drop(notice.id);
            }}
            className="flex items-center gap-3 rounded-xl border border-line bg-surface px-4 py-3 text-sm text-fg shadow-lg"
          >
            <Toast.Description className="flex-1">{notice.text}</Toast.Description>
            {notice.action !== undefined && (
              <Toast.Action altText={notice.action.label} asChild>
                <button
                  type="button"
                  onClick={notice.action.run}
                  className="min-h-9 rounded-lg border border-brand px-3 font-medium text-brand-ink hover:bg-brand/10"
                >
                  {notice.action.label}
                </button>
              </Toast.Action>
            )}
            <Toast.Close aria-label="关闭" className="min-h-9 rounded-lg px-2 text-muted hover:text-fg">
              ×
            </Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport className="fixed inset-x-3 bottom-3 z-50 flex flex-col gap-2 outline-none sm:start-auto sm:end-4 sm:bottom-4 sm:w-96" />
      </Toast.Provider>
    </NotifyContext>
  );
}

export const useNotify = () => use(NotifyContext);
