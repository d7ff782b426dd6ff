import { formatSize, type Os } from './api';
import { archLabel, roleShortLabels, storedName, type ReleasePayload } from './payload-rules';

/** A release's update payloads in its history row, one short line each: what it is, for which
 * CPU, the file and its size (docs/console.md#releases-settings-and-numbers). */
export function PayloadList({ os, payloads, version }: { os: Os; payloads: ReleasePayload[]; version: string }) {
  if (payloads.length === 0) return null;
  return (
    <ul aria-label={`${version} 的更新包`} className="flex w-full flex-col gap-0.5 text-xs text-muted">
      {payloads.map((payload, at) => (
        <li key={at} className="flex flex-wrap gap-x-2">
          <span className="text-fg">{roleShortLabels[payload.role]}</span>
          <span>{archLabel(os, payload.arch)}</span>
          <span className="min-w-0 font-mono break-all">{storedName(payload)}</span>
          <span>{payload.file_key === null ? '外部地址' : formatSize(payload.size)}</span>
        </li>
      ))}
    </ul>
  );
}
