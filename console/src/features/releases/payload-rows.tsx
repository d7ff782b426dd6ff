import { useId, useRef } from 'react';
import { Button } from '../../ui/button';
import { Field, inputClass } from '../../ui/field';
import {
  archLabel,
  newPayload,
  pickerAccept,
  roleLabels,
  type PayloadArch,
  type PayloadDraft,
  type PayloadField,
  type PayloadProblems,
  type PayloadRole,
} from './payload-rules';

/** The release form's 更新包（可选） section: one row per file an installed app's updater fetches
 * (docs/console.md#releases-settings-and-numbers). Problems are said under their field. */
export function PayloadRows({
  os,
  rows,
  problems,
  onChange,
  idBase,
}: {
  os: 'mac' | 'windows';
  rows: PayloadDraft[];
  problems: PayloadProblems[];
  /** Every edit: the new rows, and the row's fields whose problems it answers (none: a row removed). */
  onChange: (rows: PayloadDraft[], edited?: { index: number; fields: PayloadField[] }) => void;
  /** Each row's fields have ids `${idBase}-${row.key}-${field}`, for focus. */
  idBase: string;
}) {
  const headingId = useId();
  const nextKey = useRef(1);
  const add = () => {
    onChange([...rows, newPayload(nextKey.current++, rows)]);
  };
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2 rounded-lg border border-line p-3">
      <h3 id={headingId} className="text-sm font-medium">
        更新包（可选）
      </h3>
      <p className="text-xs text-muted">
        已安装的应用检查更新时下载这些文件，不是下载页上的安装包。用 Electron 打包的应用由 electron-updater 下载更新包（
        {os === 'mac' ? 'Mac 上是 .zip' : 'Windows 上是 .exe 安装程序'}），有差分文件 (.blockmap) 时只下载变化的部分；用
        Tauri 打包的应用下载 Tauri 更新包（
        {os === 'mac' ? '.app.tar.gz' : '.nsis.zip、.msi.zip 或安装程序本身'}），并用签名核对。
        没有添加更新包时，应用下载上面的安装包。下载卡片始终提供上面的安装包。
      </p>
      {rows.length > 0 && (
        <ol className="flex flex-col gap-3">
          {rows.map((row, index) => (
            <PayloadRow
              key={row.key}
              id={`${idBase}-${row.key}`}
              os={os}
              row={row}
              place={index + 1}
              problems={problems[index] ?? {}}
              onChange={(next, fields) =>
                onChange(
                  rows.map((one, at) => (at === index ? next : one)),
                  { index, fields },
                )
              }
              onRemove={() => onChange(rows.filter((_, at) => at !== index))}
            />
          ))}
        </ol>
      )}
      <div>
        <Button onClick={add} disabled={rows.length >= 8}>
          添加更新包
        </Button>
      </div>
    </section>
  );
}

function PayloadRow({
  id,
  os,
  row,
  place,
  problems,
  onChange,
  onRemove,
}: {
  id: string;
  os: 'mac' | 'windows';
  row: PayloadDraft;
  place: number;
  problems: PayloadProblems;
  onChange: (row: PayloadDraft, fields: PayloadField[]) => void;
  onRemove: () => void;
}) {
  const name = `更新包 ${place}`;
  const marks = (field: PayloadField) => ({
    'aria-invalid': problems[field] !== undefined,
    ...(problems[field] !== undefined && { 'aria-describedby': `${id}-${field}-error` }),
  });
  const edit = (change: Partial<PayloadDraft>, ...fields: PayloadField[]) => onChange({ ...row, ...change }, fields);
  return (
    <li>
      <fieldset className="flex flex-col gap-2 rounded-lg bg-surface-2 p-3">
        <legend className="sr-only">{name}</legend>
        <div className="flex items-center justify-between gap-2">
          <span aria-hidden="true" className="text-sm font-medium">
            {name}
          </span>
          <Button tone="ghost" aria-label={`移除${name}`} onClick={onRemove}>
            移除
          </Button>
        </div>
        <div className="grid gap-2 sm:grid-cols-2">
          <Field id={`${id}-role`} label="类型" error={problems.role}>
            <select
              id={`${id}-role`}
              value={row.role}
              onChange={(event) =>
                edit({ role: event.target.value as PayloadRole }, 'role', 'file', 'url', 'signature')
              }
              {...marks('role')}
              className={inputClass}
            >
              {(Object.keys(roleLabels) as PayloadRole[]).map((role) => (
                <option key={role} value={role}>
                  {roleLabels[role]}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-arch`} label="架构">
            <select
              id={`${id}-arch`}
              value={row.arch}
              onChange={(event) => edit({ arch: event.target.value as PayloadArch | '' }, 'role')}
              className={inputClass}
            >
              {(['', 'x86_64', 'aarch64'] as const).map((arch) => (
                <option key={arch} value={arch}>
                  {archLabel(os, arch || null)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <fieldset className="flex gap-4 text-sm">
          <legend className="sr-only">{name}的来源</legend>
          {(
            [
              ['file', '上传文件'],
              ['url', '外部地址'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-1.5">
              <input
                type="radio"
                name={`${id}-source`}
                checked={row.source === value}
                onChange={() => edit({ source: value }, 'file', 'url')}
              />
              {label}
            </label>
          ))}
        </fieldset>
        {row.source === 'file' ? (
          <Field id={`${id}-file`} label="更新包文件" error={problems.file}>
            <input
              id={`${id}-file`}
              type="file"
              accept={pickerAccept(os, row.role)}
              onChange={(event) => edit({ file: event.target.files?.[0] ?? null }, 'file')}
              {...marks('file')}
              className={inputClass}
            />
          </Field>
        ) : (
          <Field id={`${id}-url`} label="更新包地址" error={problems.url}>
            <input
              id={`${id}-url`}
              type="url"
              placeholder="https://"
              value={row.url}
              onChange={(event) => edit({ url: event.target.value }, 'url')}
              {...marks('url')}
              className={inputClass}
            />
          </Field>
        )}
        {row.role === 'tauri' && (
          <Field
            id={`${id}-signature`}
            label="签名"
            hint="tauri build 为这个文件生成的 .sig 文件内容"
            error={problems.signature}
          >
            <textarea
              id={`${id}-signature`}
              rows={2}
              value={row.signature}
              onChange={(event) => edit({ signature: event.target.value }, 'signature')}
              {...marks('signature')}
              maxLength={4096}
              className={`${inputClass} font-mono text-xs`}
            />
          </Field>
        )}
      </fieldset>
    </li>
  );
}
