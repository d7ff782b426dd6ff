import { Icon, type IconSize } from '../../../components/ui/icon';
import type { Platform } from '../../../lib/platform';

const icons: Record<Platform, string> = {
  android:
    'M7 10h10v7a1 1 0 0 1-1 1H8a1 1 0 0 1-1-1zm0-1a5 5 0 0 1 10 0zm2.5-2.2h.01m4.99 0h.01M8.5 4.5 7.5 3m8 1.5 1-1.5M4.5 11v4m15-4v4M10 18v3m4-3v3',
  ios: 'M8 2.5h8a1.5 1.5 0 0 1 1.5 1.5v16a1.5 1.5 0 0 1-1.5 1.5H8A1.5 1.5 0 0 1 6.5 20V4A1.5 1.5 0 0 1 8 2.5zm3 16h2',
  windows: 'M3.5 5.5 10.5 4.5v7h-7zm9-1.3 8-1.2v8.5h-8zM3.5 12.5h7v7l-7-1zm9 0h8V21l-8-1.2z',
  // A phone with a ring, not HarmonyOS's own mark.
  harmonyos:
    'M8 2.5h8a1.5 1.5 0 0 1 1.5 1.5v16a1.5 1.5 0 0 1-1.5 1.5H8A1.5 1.5 0 0 1 6.5 20V4A1.5 1.5 0 0 1 8 2.5zM12 8.5a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  mac: 'M4 5.5A1.5 1.5 0 0 1 5.5 4h13A1.5 1.5 0 0 1 20 5.5V15H4zM2 18h20l-1 2H3z',
};

export function PlatformIcon({ platform, size }: { platform: Platform; size?: IconSize }) {
  return <Icon path={icons[platform]} size={size} strokeWidth={1.6} />;
}
