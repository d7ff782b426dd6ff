import { Field, inputClass, problemMarks } from '../../ui/field';

export type Source = 'file' | 'url';

const sources = [
  ['file', '上传文件'],
  ['url', '外部地址'],
] as const;

/**
 * Where a file of a release comes from: 上传文件 or 外部地址, then the file picker or the address
 * field under it. The publish form's package and each update payload row use it; their fields
 * have the ids `${id}-file` and `${id}-url`, which the forms focus when a check fails.
 */
export function SourceFields({
  id,
  legend,
  legendHidden = false,
  source,
  onSource,
  file,
  url,
}: {
  id: string;
  legend: string;
  /** The legend for screen readers only, where a heading above already says it. */
  legendHidden?: boolean;
  source: Source;
  onSource: (source: Source) => void;
  file: {
    label: string;
    hint?: string;
    accept: string;
    error: string | undefined;
    onPick: (file: File | null) => void;
  };
  url: { label: string; value: string; error: string | undefined; onChange: (value: string) => void };
}) {
  return (
    <>
      <fieldset className="flex gap-4 text-sm">
        <legend className={legendHidden ? 'sr-only' : 'mb-1 font-medium'}>{legend}</legend>
        {sources.map(([value, label]) => (
          <label key={value} className="flex items-center gap-1.5">
            <input type="radio" name={`${id}-source`} checked={source === value} onChange={() => onSource(value)} />
            {label}
          </label>
        ))}
      </fieldset>
      {source === 'file' ? (
        <Field id={`${id}-file`} label={file.label} hint={file.hint} error={file.error}>
          <input
            id={`${id}-file`}
            type="file"
            accept={file.accept}
            onChange={(event) => file.onPick(event.target.files?.[0] ?? null)}
            {...problemMarks(`${id}-file`, file.error)}
            className={inputClass}
          />
        </Field>
      ) : (
        <Field id={`${id}-url`} label={url.label} error={url.error}>
          <input
            id={`${id}-url`}
            type="url"
            placeholder="https://"
            value={url.value}
            onChange={(event) => url.onChange(event.target.value)}
            {...problemMarks(`${id}-url`, url.error)}
            className={inputClass}
          />
        </Field>
      )}
    </>
  );
}
