import { Button } from '../../ui/button';
import { Problem } from '../../ui/status';
import { osLabels, rolloutSentence, useChangeRollout, type Os, type Rollout } from './api';

/** The shares a roll-out is raised through, one press each (docs/releases.md#staged-roll-out). */
export const rolloutSteps = [1, 5, 10, 20, 50, 100] as const;

/** A platform's staged roll-out: who is offered what now, and its three actions (提高比例, 暂停,
 * 继续). */
export function RolloutPanel({ os, rollout }: { os: Os; rollout: Rollout }) {
  const change = useChangeRollout(os);
  const next = rolloutSteps.find((step) => step > rollout.percentage);
  const version = rollout.version ?? `#${rollout.release_id}`;
  const done = rollout.percentage === 100 && !rollout.halted;
  return (
    <section
      aria-label={`${osLabels[os]} 分阶段发布`}
      className={`flex flex-col gap-2 rounded-lg border p-3 text-sm ${rollout.halted ? 'border-danger' : 'border-line'}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">分阶段发布 {version}</h3>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${rollout.halted ? 'border border-danger text-danger' : 'bg-brand/15 text-brand-ink'}`}
        >
          {rollout.halted ? '已暂停' : done ? '已全量' : `${rollout.percentage}%`}
        </span>
      </div>
      <div
        role="meter"
        aria-label="推送比例"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={rollout.percentage}
        aria-valuetext={`${rollout.percentage}%`}
        className="h-2 overflow-hidden rounded-full bg-surface-2"
      >
        <div
          className={`h-full ${rollout.halted ? 'bg-danger' : 'bg-[#2563eb]'}`}
          style={{ width: `${rollout.percentage}%` }}
        />
      </div>
      <p>{rolloutSentence(rollout)}。</p>
      <p className="text-xs text-muted">
        比例之内的安装在检查更新时收到新版本；每个安装落在哪一份固定不变，提高比例时已收到的安装不会退出。
        暂停后下载页改回上一版本，已更新的安装保持不变。
      </p>
      {change.isError && <Problem>操作失败：{change.error.message}</Problem>}
      <div className="flex flex-wrap gap-2">
        {!rollout.halted && next !== undefined && (
          <Button tone="primary" disabled={change.isPending} onClick={() => change.mutate({ percentage: next })}>
            {next === 100 ? '推送给全部安装' : `提高到 ${next}%`}
          </Button>
        )}
        {rollout.halted ? (
          <Button tone="primary" disabled={change.isPending} onClick={() => change.mutate('resume')}>
            继续推送（{rollout.percentage}%）
          </Button>
        ) : (
          <Button tone="danger" disabled={change.isPending} onClick={() => change.mutate('halt')}>
            暂停推送
          </Button>
        )}
      </div>
    </section>
  );
}
