import { Button } from './button';
import { Problem } from './status';

/** What a screen could not load, with 重试; the query also tries again by itself
 * (console/src/lib/query.ts), so the screen recovers when the server is back. */
export function LoadProblem({ what, error, onRetry }: { what: string; error: Error; onRetry: () => void }) {
  return (
    <div className="flex flex-col items-start gap-2">
      <Problem>
        {what}加载失败：{error.message}
      </Problem>
      <Button onClick={onRetry}>重试</Button>
    </div>
  );
}
