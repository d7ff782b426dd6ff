import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api';
import { fromFieldTime } from '../../lib/wire-time';
import { Button } from '../../ui/button';
import { Field, inputClass, problemMarks } from '../../ui/field';
import { Problem } from '../../ui/status';
import { osExtensions, osLabels, usePublishRelease, type NewRelease, type Os } from './api';
import { apkVersionFound, apkVersionSentence, releaseProblems, type ReleaseProblems } from './release-checks';
import { useNoteLanguages } from './note-panes';
import { ReleaseConfirm } from './release-confirm';
import { PayloadRows } from './payload-rows';
import { usePayloadDrafts } from './payload-drafts';
import { rolloutSteps } from './rollout-panel';
import { SourceFields, type Source } from './source-fields';

/** A new release for one platform: a package uploaded with progress, or an outside address;
 * 发布 asks first (release-confirm.tsx). */
export function PublishForm({
  os,
  current,
  canStage,
  timeZone,
  onDone,
  onClose,
}: {
  os: Os;
  current: string | null;
  /** There is a release to offer the installs outside a staged roll-out's share. */
  canStage: boolean;
  timeZone: string;
  onDone: () => void;
  /** 取消 closed the form; `stoppedUpload` when it stopped a package upload on its way. */
  onClose: (stoppedUpload: boolean) => void;
}) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // The button that opened the form is gone: focus starts at the form's first choice.
  useEffect(() => formRef.current?.querySelector<HTMLInputElement>('input:checked')?.focus(), []);
  const [source, setSource] = useState<Source>('file');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [fields, setFields] = useState({ url: '', version: '', notes: '', releasedAt: '', minOs: '', signature: '' });
  const [force, setForce] = useState(false);
  const [share, setShare] = useState(100);
  const [problems, setProblems] = useState<ReleaseProblems>({});
  const payloads = usePayloadDrafts(os, id);
  const noteLanguages = useNoteLanguages(id);
  const put = (name: keyof typeof fields, value: string) => {
    setFields((old) => ({ ...old, [name]: value }));
    setProblems(({ [name as keyof ReleaseProblems]: _, ...rest }) => rest);
  };
  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) => put(name, event.target.value);
  // A problem is said under its field, tied to it for screen readers (ui/field.tsx).
  const marks = (name: keyof ReleaseProblems) => problemMarks(`${id}-${name}`, problems[name]);
  // 取消 (停止上传 while a package uploads) closes this form: whatever it was doing stops, and
  // nothing is published.
  const cancelled = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    cancelled.current = controller;
    return () => controller.abort();
  }, []);
  const publish = usePublishRelease({ onSuccess: onDone, onSettled: () => setProgress(null) });
  // The server's check of the signature is said under it, until it is edited.
  const signatureProblem =
    publish.error instanceof ApiError && publish.error.field === 'signature' ? publish.error.message : undefined;
  const release = (): NewRelease => {
    const made: NewRelease = { os };
    if (source === 'url') made.url = fields.url.trim();
    if (fields.version.trim() !== '') made.version = fields.version.trim();
    if (fields.notes.trim() !== '') made.notes = fields.notes;
    if (fields.releasedAt !== '') made.released_at = fromFieldTime(fields.releasedAt);
    if (fields.minOs.trim() !== '') made.min_os = fields.minOs.trim();
    if (force) made.force_update = true;
    if (fields.signature.trim() !== '') made.signature = fields.signature.trim();
    if (share < 100) made.rollout_percentage = share;
    if (payloads.rows.length > 0) made.payloads = payloads.bodies();
    return noteLanguages.withNotes(made);
  };
  // A version the APK contradicts: the APK's own goes into the field, said beside it.
  const takeApkVersion = (error: Error) => {
    const found = apkVersionFound(error);
    if (found === undefined) return;
    setFields((old) => ({ ...old, version: found }));
    setProblems({ version: apkVersionSentence(fields.version.trim(), found) });
    document.getElementById(`${id}-version`)?.focus();
  };
  // Every field is checked before the confirm step; the first one wrong takes focus.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = releaseProblems({ source, file, url: fields.url, version: fields.version });
    setProblems(found);
    const first = (['file', 'url', 'version'] as const).find((name) => found[name] !== undefined);
    // The payloads' own problems, before anything is uploaded; focus goes to the first of all.
    const firstPayload = payloads.check();
    if (first !== undefined) document.getElementById(`${id}-${first}`)?.focus();
    else if (firstPayload !== undefined) document.getElementById(firstPayload)?.focus();
    else setConfirming(true);
  };
  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={submit}
      aria-label={`发布 ${osLabels[os]} 新版本`}
      className="flex flex-col gap-3 border-t border-line pt-3"
    >
      <SourceFields
        id={id}
        legend="安装包来源"
        source={source}
        onSource={(value) => {
          setSource(value);
          setProblems({});
        }}
        file={{
          label: '安装包文件',
          hint: `支持 ${osExtensions[os]}；大文件分块上传，断线后可继续`,
          accept: osExtensions[os],
          error: problems.file,
          onPick: (picked) => {
            setFile(picked);
            setProblems(({ file: _, ...rest }) => rest);
          },
        }}
        url={{ label: '下载地址', value: fields.url, error: problems.url, onChange: (value) => put('url', value) }}
      />
      {progress !== null && (
        <div className="flex items-center gap-2 text-sm">
          <progress aria-label="上传进度" max={1} value={progress} className="h-2 flex-1" />
          <span aria-live="polite">{Math.floor(progress * 100)}%</span>
        </div>
      )}
      <Field
        id={`${id}-version`}
        label="版本号"
        hint={os === 'android' && source === 'file' ? '留空则从 APK 读取；填写时必须与 APK 一致' : undefined}
        error={problems.version}
      >
        <input
          id={`${id}-version`}
          value={fields.version}
          onChange={set('version')}
          {...marks('version')}
          maxLength={64}
          className={inputClass}
        />
      </Field>
      <Field id={`${id}-notes`} label="更新说明" hint="下载页的卡片显示前三行，更新日志显示全文">
        <textarea id={`${id}-notes`} rows={3} value={fields.notes} onChange={set('notes')} className={inputClass} />
      </Field>
      {noteLanguages.panes}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={`${id}-date`} label="发布时间" hint={`留空为现在；时区 ${timeZone}`}>
          <input
            id={`${id}-date`}
            type="datetime-local"
            value={fields.releasedAt}
            onChange={set('releasedAt')}
            className={inputClass}
          />
        </Field>
        <Field id={`${id}-min-os`} label="最低系统版本" hint="显示在下载页的卡片上；留空则显示默认要求">
          <input
            id={`${id}-min-os`}
            value={fields.minOs}
            onChange={set('minOs')}
            maxLength={64}
            placeholder={`如 ${{ android: 'Android 8.0', ios: 'iOS 13', windows: 'Windows 10', mac: 'macOS 11' }[os]}`}
            className={inputClass}
          />
        </Field>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={force} onChange={(event) => setForce(event.target.checked)} />
        强制更新（旧版本的应用必须更新后才能继续使用）
      </label>
      {canStage && (
        <Field id={`${id}-share`} label="推送范围" hint="先推送给一部分安装，没问题再逐步提高；其余安装仍提供当前版本">
          <select
            id={`${id}-share`}
            value={share}
            onChange={(event) => setShare(Number(event.target.value))}
            className={inputClass}
          >
            {[100, ...rolloutSteps.filter((step) => step < 100)].map((step) => (
              <option key={step} value={step}>
                {step === 100 ? '全部安装（立即）' : `分阶段发布：先推送给 ${step}% 的安装`}
              </option>
            ))}
          </select>
        </Field>
      )}
      {(os === 'windows' || os === 'mac') && (
        <Field
          id={`${id}-signature`}
          label="更新签名（Tauri，可选）"
          hint="tauri build 生成的 .sig 文件内容；发布前用设置的公钥核对"
          error={signatureProblem}
        >
          <textarea
            id={`${id}-signature`}
            rows={2}
            value={fields.signature}
            onChange={(event) => {
              set('signature')(event);
              publish.reset();
            }}
            {...(signatureProblem !== undefined && {
              'aria-invalid': true,
              'aria-describedby': `${id}-signature-error`,
            })}
            maxLength={4096}
            className={`${inputClass} font-mono text-xs`}
          />
        </Field>
      )}
      {(os === 'windows' || os === 'mac') && (
        <PayloadRows
          os={os}
          idBase={`${id}-payload`}
          rows={payloads.rows}
          problems={payloads.shownProblems(publish.error)}
          onChange={(rows, edited) => {
            payloads.change(rows, edited);
            publish.reset();
          }}
        />
      )}
      {publish.isError &&
        apkVersionFound(publish.error) === undefined &&
        signatureProblem === undefined &&
        !payloads.refused(publish.error) && <Problem>发布失败：{publish.error.message}</Problem>}
      <ReleaseConfirm
        os={os}
        from={current}
        to={fields.version.trim()}
        share={share}
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={() =>
          publish.mutate(
            {
              release: release(),
              ...(source === 'file' && { file }),
              payloadFiles: payloads.files(),
              onProgress: setProgress,
              signal: cancelled.current.signal,
            },
            { onError: takeApkVersion },
          )
        }
      />
      <div className="flex gap-2">
        <Button type="submit" tone="primary" disabled={publish.isPending}>
          {publish.isPending ? '发布中…' : '发布'}
        </Button>
        <Button onClick={() => onClose(progress !== null)}>{progress !== null ? '停止上传' : '取消'}</Button>
      </div>
    </form>
  );
}
