import { Button } from './button';

/** 上一页 / 第 n / m 页 / 下一页, shown only when there is more than one page. */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="分页" className="flex items-center justify-center gap-3 text-sm">
      <Button disabled={page <= 1} onClick={() => onPage(page - 1)}>
        上一页
      </Button>
      <span aria-live="polite">
        第 {page} / {pages} 页
      </span>
      <Button disabled={page >= pages} onClick={() => onPage(page + 1)}>
        下一页
      </Button>
    </nav>
  );
}
