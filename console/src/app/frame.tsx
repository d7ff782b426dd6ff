import { useMutation } from '@tanstack/react-query';
import { Suspense, type MouseEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { call } from '../lib/api';
import { answerLeaving, hasUnsavedEdits, holdLeaving, useLeavingHeld } from '../lib/leave-guard';
import { queryClient } from '../lib/query';
import { sessionKey, type Operator } from '../lib/session';
import { setTheme, useTheme } from '../lib/theme';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Waiting } from '../ui/status';
import { ScreenBoundary } from './screen-boundary';
import { MainNav } from './main-nav';
import { navigation, renewFailedScreens } from './screens';
import { useHeaderHeight } from './use-header-height';

const roleLabels = { admin: '管理员', editor: '编辑' } as const;

/** The console's frame: name, navigation, who is signed in, theme, sign-out; then the screen. */
export function Frame({ operator, children }: { operator: Operator; children: ReactNode }) {
  const [location, navigate] = useLocation();
  const theme = useTheme();
  // A step that would leave unsaved edits (a link, 退出登录, Back) waits for the operator.
  const leaving = useLeavingHeld();
  /** Holds a step that would leave unsaved edits (answers true) until the operator confirms. */
  const held = (event: MouseEvent, step: () => void): boolean => {
    if (!hasUnsavedEdits()) return false;
    event.preventDefault();
    holdLeaving(step);
    return true;
  };
  const go = (href: string) => (event: MouseEvent) => held(event, () => navigate(href));
  const signOut = useMutation({
    mutationFn: () => call<undefined>('/session', { method: 'DELETE' }),
    onSettled: () => {
      // The sign-in screen at once; nothing the last operator saw stays in memory.
      queryClient.setQueryData(sessionKey, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
    },
  });
  const header = useHeaderHeight();
  const items = navigation.filter((item) => item.adminOnly !== true || operator.role === 'admin');
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#console-main"
        className="sr-only focus:not-sr-only focus:fixed focus:start-3 focus:top-3 focus:z-50 focus:rounded-lg focus:bg-surface focus:px-3 focus:py-2"
      >
        跳到主要内容
      </a>
      <header ref={header} className="sticky top-0 z-30 border-b border-line bg-bg/95 backdrop-blur">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2">
          <Link href="/bulletins" onClick={go('/bulletins')} className="me-2 text-base font-semibold">
            运营后台
          </Link>
          {/* The public site, opened beside the console (docs/console.md#screens). */}
          <a
            href="/"
            target="_blank"
            rel="noopener"
            className="text-sm text-brand-ink underline-offset-4 hover:underline"
          >
            查看网站<span className="sr-only">（在新标签页打开）</span> ↗
          </a>
          <MainNav items={items} location={location} onClick={go} />
          <div className="ms-auto flex min-w-0 items-center gap-2">
            <span
              className="min-w-0 truncate text-sm text-muted"
              title={`${operator.name} · ${roleLabels[operator.role]}`}
            >
              {operator.name} · {roleLabels[operator.role]}
            </span>
            <Button
              tone="ghost"
              aria-label={theme === 'dark' ? '切换到浅色' : '切换到深色'}
              onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
              className="px-3"
            >
              {theme === 'dark' ? '浅色' : '深色'}
            </Button>
            <Button onClick={(event) => held(event, signOut.mutate) || signOut.mutate()} disabled={signOut.isPending}>
              退出登录
            </Button>
          </div>
        </div>
      </header>
      <main id="console-main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none">
        <ScreenBoundary key={location} onRetry={renewFailedScreens}>
          <Suspense fallback={<Waiting />}>{children}</Suspense>
        </ScreenBoundary>
      </main>
      <ConfirmDialog
        open={leaving}
        onOpenChange={(open) => open || answerLeaving(false)}
        title="放弃未保存的修改？"
        description={<p>这个页面有未保存的修改，离开后将丢失。</p>}
        cancel="继续编辑"
        confirm="放弃修改并离开"
        tone="danger"
        onConfirm={() => answerLeaving(true)}
      />
    </div>
  );
}
