import { useEffect } from 'react';

/** Every console screen names itself in the tab and to screen readers' page announcements. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · 运营后台`;
  }, [title]);
}
