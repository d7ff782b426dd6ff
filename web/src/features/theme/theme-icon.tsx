import type { Theme } from './theme';
import { Icon } from '../../components/ui/icon';

const paths: Record<Theme, string> = {
  light:
    'M12 4V2m0 20v-2m8-8h2M2 12h2m13.66-5.66 1.41-1.41M4.93 19.07l1.41-1.41m0-11.32L4.93 4.93m14.14 14.14-1.41-1.41M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10Z',
  dark: 'M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8Z',
  system: 'M4 5h16v11H4zM8 20h8m-4-4v4',
};

export function ThemeIcon({ theme }: { theme: Theme }) {
  return <Icon path={paths[theme]} size="sm" />;
}
