import { fromFieldTime } from '../../lib/wire-time';
import { Field, inputClass } from '../../ui/field';

/** The two end times of the editor, as datetime-local values ("" for never). */
export interface EndTimes {
  unpublishAt: string;
  unpinAt: string;
}

export type EndTimeField = 'unpublish' | 'unpin';

/** What is wrong with the end times, checked before a save (the server checks again):
 * each must come after now and after the publication (docs/console.md#stopping-by-itself). */
export function endTimeProblem(
  times: EndTimes,
  publishAt: string,
  now: string,
): { field: EndTimeField; text: string } | undefined {
  const checks: [EndTimeField, string, string][] = [
    ['unpublish', times.unpublishAt, '下线时间'],
    ['unpin', times.unpinAt, '置顶截止时间'],
  ];
  for (const [field, value, name] of checks) {
    if (value === '') continue;
    const at = fromFieldTime(value);
    if (at <= now) return { field, text: `${name}需要晚于现在` };
    if (at <= publishAt) return { field, text: `${name}需要晚于发布时间` };
  }
  return undefined;
}

/** 下线时间 and 置顶截止: when the server's scheduler takes it off the site or unpins it. */
export function EndTimeFields({
  times,
  pinned,
  timeZone,
  problem,
  onChange,
}: {
  times: EndTimes;
  pinned: boolean;
  timeZone: string;
  problem: { field: EndTimeField; text: string } | undefined;
  onChange: (patch: Partial<EndTimes>) => void;
}) {
  return (
    <div className="grid gap-5 md:grid-cols-2">
      <Field
        id="bulletin-unpublish"
        label="下线时间"
        hint={`到时从网站撤下，回到草稿（${timeZone}）。留空则一直显示。`}
        error={problem?.field === 'unpublish' ? problem.text : undefined}
      >
        <input
          id="bulletin-unpublish"
          type="datetime-local"
          value={times.unpublishAt}
          onChange={(event) => onChange({ unpublishAt: event.target.value })}
          className={inputClass}
          aria-describedby="bulletin-unpublish-hint"
          aria-invalid={problem?.field === 'unpublish'}
        />
      </Field>
      <Field
        id="bulletin-unpin"
        label="置顶截止"
        hint={pinned ? `到时自动取消置顶（${timeZone}）。留空则一直置顶。` : '勾选“置顶”后可设置。'}
        error={problem?.field === 'unpin' ? problem.text : undefined}
      >
        <input
          id="bulletin-unpin"
          type="datetime-local"
          value={times.unpinAt}
          disabled={!pinned}
          onChange={(event) => onChange({ unpinAt: event.target.value })}
          className={`${inputClass} disabled:opacity-50`}
          aria-describedby="bulletin-unpin-hint"
          aria-invalid={problem?.field === 'unpin'}
        />
      </Field>
    </div>
  );
}
