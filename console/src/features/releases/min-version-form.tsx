import { isAppVersion } from '@chat-site/contract';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button';
import { inputClass } from '../../ui/field';
import { Problem } from '../../ui/status';
import { osLabels, useSetMinVersion, type Os } from './api';
import { versionFormatHint } from './release-checks';

/** A platform's lowest supported version (最低支持版本): the apps below it are told the update is
 * forced (docs/releases.md#update-checks). Empty clears it. */
export function MinVersionForm({ os, minVersion }: { os: Os; minVersion: string | null }) {
  const id = useId();
  const [value, setValue] = useState(minVersion ?? '');
  const save = useSetMinVersion(os);
  const [problem, setProblem] = useState<string>();
  // The format is checked here, beside the field, before the server is asked.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const given = value.trim();
    if (given !== '' && !isAppVersion(given)) {
      setProblem(versionFormatHint(given));
      document.getElementById(id)?.focus();
      return;
    }
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
          onChange={(event) => {
            setValue(event.target.value);
            setProblem(undefined);
          }}
          maxLength={64}
          placeholder="如 5.2.0；留空为不限制"
          aria-invalid={problem !== undefined}
          aria-describedby={problem === undefined ? `${id}-hint` : `${id}-hint ${id}-error`}
          className={inputClass}
        />
        <Button type="submit" disabled={save.isPending || unchanged}>
          保存
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted">
        数字和点，如 5.2.0。低于此版本的应用检查更新时会被要求强制更新
      </p>
      {problem !== undefined && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {problem}
        </p>
      )}
      {save.isError && <Problem>保存失败：{save.error.message}</Problem>}
    </form>
  );
}
