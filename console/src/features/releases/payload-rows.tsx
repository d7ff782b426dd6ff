import { useId, useRef } from 'react';
import { Button } from '../../ui/button';
import { Field, inputClass, problemMarks } from '../../ui/field';
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
import { SourceFields } from './source-fields';

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
  const adder = useRef<HTMLButtonElement>(null);
  // Focus follows the rows: a new row's first choice, and 添加更新包 when the row that held it is gone.
  const add = () => {
    const row = newPayload(nextKey.current++, rows);
    onChange([...rows, row]);
    requestAnimationFrame(() => document.getElementById(`${idBase}-${row.key}-role`)?.focus());
  };
  const remove = (index: number) => {
    onChange(rows.filter((_, at) => at !== index));
    requestAnimationFrame(() => adder.current?.focus());
  };
  return (
    <section
      aria-labelledby={headingId}
      aria-describedby={`${headingId}-hint`}
      className="flex flex-col gap-2 border-t border-line pt-3"
    >
      <h3 id={headingId} className="text-sm font-medium">
        更新包（可选）
      </h3>
      <div id={`${headingId}-hint`} className="flex flex-col gap-0.5 text-xs text-muted">
        <p>已安装的应用自动更新时下载这些文件；不添加则下载上面的安装包。下载卡片始终提供上面的安装包。</p>
        <ul className="list-disc ps-4">
          <li>{`electron-updater 更新包：Electron 应用的更新（${os === 'mac' ? '.zip' : '.exe 安装程序'}）`}</li>
          <li>差分文件：electron-updater 据此只下载有变化的部分</li>
          <li>{`Tauri 更新包：Tauri 应用的更新（${os === 'mac' ? '.app.tar.gz' : '.nsis.zip、.msi.zip 或安装程序'}），需附签名`}</li>
        </ul>
      </div>
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
              onRemove={() => remove(index)}
            />
          ))}
        </ol>
      )}
      <div>
        <Button ref={adder} onClick={add} disabled={rows.length >= 8}>
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
  const marks = (field: PayloadField) => problemMarks(`${id}-${field}`, problems[field]);
  const edit = (change: Partial<PayloadDraft>, ...fields: PayloadField[]) => onChange({ ...row, ...change }, fields);
  return (
    <li>
      <fieldset className="flex flex-col gap-2 rounded-lg border border-line p-3">
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
        <SourceFields
          id={id}
          legend={`${name}的来源`}
          legendHidden
          source={row.source}
          onSource={(source) => edit({ source }, 'file', 'url')}
          file={{
            label: '更新包文件',
            accept: pickerAccept(os, row.role),
            error: problems.file,
            onPick: (file) => edit({ file }, 'file'),
          }}
          url={{ label: '更新包地址', value: row.url, error: problems.url, onChange: (url) => edit({ url }, 'url') }}
        />
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
