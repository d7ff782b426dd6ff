import { lazy, type ComponentType } from 'react';
import type { ScreenProps } from '../lib/screen';
import { AccountScreen } from '../features/account/account-screen';
import { BulletinListScreen } from '../features/bulletins/list-screen';

/** Screens whose code failed to load (the server was away): each gets a fresh loader when its
 * screen is tried again, since React keeps a lazy component's failure. */
const failed = new Set<() => void>();

export const renewFailedScreens = () => {
  for (const renew of [...failed]) renew();
  failed.clear();
};

/** A screen loaded when first opened, that can be loaded again after failing. */
function lazyScreen(load: () => Promise<ComponentType<ScreenProps>>): ComponentType<ScreenProps> {
  const make = () =>
    lazy(() =>
      load().then(
        (Screen) => ({ default: Screen }),
        (error: unknown) => {
          failed.add(() => (Lazy = make()));
          throw error;
        },
      ),
    );
  let Lazy = make();
  return function Screen(props: ScreenProps) {
    return <Lazy {...props} />;
  };
}

// The editor (ProseMirror, TipTap) is most of the console's code: it loads when first opened.
const BulletinEditorScreen = lazyScreen(() =>
  import('../features/bulletins/editor-screen').then((module) => module.BulletinEditorScreen),
);
// The chart library (uPlot) loads with the numbers, the upload client (tus) with the releases.
const ReleasesScreen = lazyScreen(() =>
  import('../features/releases/releases-screen').then((module) => module.ReleasesScreen),
);
const SettingsScreen = lazyScreen(() =>
  import('../features/settings/settings-screen').then((module) => module.SettingsScreen),
);
const NumbersScreen = lazyScreen(() =>
  import('../features/numbers/numbers-screen').then((module) => module.NumbersScreen),
);
const TrashScreen = lazyScreen(() => import('../features/bulletins/trash-screen').then((module) => module.TrashScreen));
const AuditScreen = lazyScreen(() => import('../features/audit/audit-screen').then((module) => module.AuditScreen));

export interface ScreenEntry {
  path: string;
  Screen: ComponentType<ScreenProps>;
  adminOnly?: boolean;
}

/** Every screen of the console, by address under /admin. */
export const screens: ScreenEntry[] = [
  { path: '/bulletins', Screen: BulletinListScreen },
  { path: '/bulletins/new', Screen: BulletinEditorScreen },
  { path: '/bulletins/trash', Screen: TrashScreen },
  { path: '/bulletins/:id', Screen: BulletinEditorScreen },
  { path: '/releases', Screen: ReleasesScreen, adminOnly: true },
  { path: '/settings', Screen: SettingsScreen, adminOnly: true },
  { path: '/numbers', Screen: NumbersScreen, adminOnly: true },
  { path: '/audit', Screen: AuditScreen, adminOnly: true },
  { path: '/account', Screen: AccountScreen },
];

/** The navigation, in order; admin entries are hidden from editors. */
export const navigation: { href: string; label: string; adminOnly?: boolean }[] = [
  { href: '/bulletins', label: '公告' },
  { href: '/releases', label: '版本发布', adminOnly: true },
  { href: '/settings', label: '设置', adminOnly: true },
  { href: '/numbers', label: '数据', adminOnly: true },
  { href: '/audit', label: '审计日志', adminOnly: true },
  { href: '/account', label: '账号' },
];
