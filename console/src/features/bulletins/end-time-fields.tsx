import type { UseFormRegister, UseFormRegisterReturn } from 'react-hook-form';
import { Field, inputClass } from '../../ui/field';
import type { EditorValues, EndTimeField } from './editor-form';

/** A time in the server's zone (datetime-local), with its hint and error tied to it for readers. */
export function TimeField({
  id,
  label,
  hint,
  error,
  registration,
  disabled = false,
}: {
  id: string;
  label: string;
  hint: string;
  error: string | undefined;
  registration: UseFormRegisterReturn;
  disabled?: boolean;
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <input
        id={id}
        type="datetime-local"
        {...registration}
        disabled={disabled}
        className={`${inputClass} disabled:opacity-50`}
        aria-describedby={`${id}-hint`}
        aria-invalid={error !== undefined}
      />
    </Field>
  );
}

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
      <TimeField
        id="bulletin-unpublish"
        label="下线时间"
        hint={`到时从网站撤下，回到草稿（${timeZone}）。留空则一直显示。`}
        error={errors.unpublish}
        registration={register('unpublishAt')}
      />
      {/* Disabled by the attribute, not by register's option, which would empty its value: a
          time set before 置顶 was unticked is there again when it is ticked. */}
      <TimeField
        id="bulletin-unpin"
        label="置顶截止"
        hint={pinned ? `到时自动取消置顶（${timeZone}）。留空则一直置顶。` : '勾选“置顶”后可设置。'}
        error={errors.unpin}
        registration={register('unpinAt')}
        disabled={!pinned}
      />
    </div>
  );
}
