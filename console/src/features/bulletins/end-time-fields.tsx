import type { UseFormRegister } from 'react-hook-form';
import { Field, inputClass } from '../../ui/field';
import type { EditorValues, EndTimeField } from './editor-form';

/** 下线时间 and 置顶截止: when the server's scheduler takes it off the site or unpins it. */
export function EndTimeFields({
  register,
  pinned,
  timeZone,
  errors,
}: {
  register: UseFormRegister<EditorValues>;
  pinned: boolean;
  timeZone: string;
  errors: Record<EndTimeField, string | undefined>;
}) {
  return (
    <div className="grid gap-5 md:grid-cols-2">
      <Field
        id="bulletin-unpublish"
        label="下线时间"
        hint={`到时从网站撤下，回到草稿（${timeZone}）。留空则一直显示。`}
        error={errors.unpublish}
      >
        <input
          id="bulletin-unpublish"
          type="datetime-local"
          {...register('unpublishAt')}
          className={inputClass}
          aria-describedby="bulletin-unpublish-hint"
          aria-invalid={errors.unpublish !== undefined}
        />
      </Field>
      <Field
        id="bulletin-unpin"
        label="置顶截止"
        hint={pinned ? `到时自动取消置顶（${timeZone}）。留空则一直置顶。` : '勾选“置顶”后可设置。'}
        error={errors.unpin}
      >
        {/* Disabled by the attribute, not by register's option, which would empty its value: a
            time set before 置顶 was unticked is there again when it is ticked. */}
        <input
          id="bulletin-unpin"
          type="datetime-local"
          {...register('unpinAt')}
          disabled={!pinned}
          className={`${inputClass} disabled:opacity-50`}
          aria-describedby="bulletin-unpin-hint"
          aria-invalid={errors.unpin !== undefined}
        />
      </Field>
    </div>
  );
}
