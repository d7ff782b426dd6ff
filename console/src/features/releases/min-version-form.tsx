import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button';
import { inputClass } from '../../ui/field';
import { Problem } from '../../ui/status';
import { osLabels, useSetMinVersion, type Os } from './api';

/** A platform's lowest supported version (最低支持版本): the apps below it are told the update is
 * forced (docs/releases.md#update-checks). Empty clears it. */
export function MinVersionForm({ os, minVersion }: { os: Os; minVersion: string | null }) {
  const id = useId();
  const [value, setValue] = useState(minVersion ?? '');
  const save = useSetMinVersion(os);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(value);
  };
  const unchanged = value.trim() === (minVersion ?? '');
  return (
    <form onSubmit={submit} aria-label={`${osLabels[os]} 最低支持版本`} className="flex flex-col gap-1.5 text-sm">
      <label htmlFor={id} className="font-medium">
        最低支持版本
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          maxLength={64}
          placeholder="如 5.2.0；留空为不限制"
          aria-describedby={`${id}-hint`}
          className={inputClass}
        />
        <Button type="submit" disabled={save.isPending || unchanged}>
          保存
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted">
        低于此版本的应用检查更新时会被要求强制更新
      </p>
      {save.isError && <Problem>保存失败：{save.error.message}</Problem>}
    </form>
  );
}
