import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { shortTime } from '../../lib/wire-time';
import { Button } from '../../ui/button';
import { getBulletin, type AdminBulletin } from './api';
import { listRevisions } from './history-api';

/** How often an open announcement asks whether someone else saved it: a light read of one row,
 * so a tab left open learns of another's save, delete or restore within seconds
 * (docs/console.md#two-operators-one-announcement). */
export const watchEveryMs = 4_000;

export type RemoteChange = { kind: 'saved'; current: AdminBulletin; by: string | null } | { kind: 'deleted' };

/** What another tab or operator did to the announcement this editor has open at `version`;
 * undefined while nothing has happened, or while this editor is saving itself. */
export function useRemoteChange(id: number | undefined, version: number | undefined, paused: boolean) {
  const watched = useQuery({
    queryKey: ['bulletin-watch', id],
    queryFn: ({ signal }) => getBulletin(id ?? 0, signal),
    // Not while this editor saves or deletes it itself; not again once it is gone.
    enabled: id !== undefined && !paused,
    refetchInterval: (query) => (query.state.error === null ? watchEveryMs : false),
    refetchIntervalInBackground: true,
    retry: false,
    gcTime: 0,
  });
  const newer = watched.data !== undefined && version !== undefined && watched.data.version > version;
  // Who saved it: the newest revision's account.
  const author = useQuery({
    queryKey: ['bulletin-watch-author', id, watched.data?.version],
    queryFn: ({ signal }) => listRevisions(id ?? 0, signal),
    enabled: newer && !paused,
    gcTime: 0,
  });
  if (paused || id === undefined) return undefined;
  const gone = watched.error instanceof ApiError && watched.error.status === 404;
  if (gone) return { kind: 'deleted' } satisfies RemoteChange;
  if (!newer || watched.data === undefined || author.isPending) return undefined;
  const newest = author.data?.list.find((revision) => revision.version === watched.data.version);
  return { kind: 'saved', current: watched.data, by: newest?.by ?? null } satisfies RemoteChange;
}

/** The notice above the editor: who saved it and when, with the saved version one click away. */
export function RemoteChangeNotice({
  change,
  me,
  onLoad,
}: {
  change: RemoteChange | undefined;
  me: string;
  onLoad: (bulletin: AdminBulletin) => void;
}) {
  return (
    <div role="status" aria-live="polite">
      {change !== undefined && (
        <div className="flex flex-wrap items-center gap-3 rounded-xl border border-brand-ink px-4 py-3 text-sm">
          <p className="flex-1">
            {change.kind === 'deleted'
              ? '这条公告已被删除，可在回收站恢复。这里的内容尚未保存。'
              : `${who(change.by, me)}于 ${shortTime(change.current.updated_at)} 保存了这条公告（现在是第 ${change.current.version} 版）。`}
          </p>
          {change.kind === 'saved' && <Button onClick={() => onLoad(change.current)}>载入已保存的版本</Button>}
        </div>
      )}
    </div>
  );
}

const who = (by: string | null, me: string) =>
  by === null ? '有人' : by === me ? '你在另一个标签页或窗口中' : `${by} `;
