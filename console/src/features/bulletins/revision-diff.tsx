import { characters, diffTokens, htmlToLines, type DiffPart } from './text-diff';
import type { Revision } from './history-api';

const marks: Record<DiffPart['kind'], string> = {
  same: '',
  added: 'rounded-sm bg-emerald-500/25 text-fg',
  removed: 'rounded-sm bg-danger/20 text-fg line-through',
};
const spoken: Record<DiffPart['kind'], string> = { same: '', added: '新增：', removed: '删除：' };

/** Parts with their marks; a screen reader hears 新增/删除 before each changed part. */
function Marked({ parts }: { parts: DiffPart[] }) {
  return parts.map((piece, index) =>
    piece.kind === 'same' ? (
      <span key={index}>{piece.text}</span>
    ) : (
      <span key={index} className={marks[piece.kind]}>
        <span className="sr-only">{spoken[piece.kind]}</span>
        {piece.text}
      </span>
    ),
  );
}

/** The body's lines: unchanged ones plain, a changed line marked character by character, a
 * line only in one revision marked whole. */
function BodyDiff({ before, after }: { before: string; after: string }) {
  const lines = diffTokens(htmlToLines(before), htmlToLines(after), '\n');
  const rows: { kind: DiffPart['kind'] | 'changed'; parts: DiffPart[] }[] = [];
  lines.forEach((line, index) => {
    const next = lines[index + 1];
    if (line.kind === 'added' && lines[index - 1]?.kind === 'removed') return;
    if (line.kind === 'removed' && next?.kind === 'added') {
      rows.push({ kind: 'changed', parts: diffTokens(characters(line.text), characters(next.text)) });
    } else rows.push({ kind: line.kind, parts: [line] });
  });
  if (rows.every((row) => row.kind === 'same')) return <p className="text-sm text-muted">正文没有变化</p>;
  return (
    <div className="flex flex-col gap-1 text-sm leading-relaxed">
      {rows.map((row, index) => (
        <p key={index} className={`whitespace-pre-wrap ${row.kind === 'same' ? 'text-muted' : ''}`}>
          <Marked parts={row.parts} />
        </p>
      ))}
    </div>
  );
}

const settingRows = (revision: Revision) => [
  ['状态', revision.state === 'draft' ? '草稿' : '已发布'],
  ['发布时间', revision.publish_at.slice(0, 16)],
  ['置顶', revision.topup === 1 ? '是' : '否'],
];

/** What changed from `before` (an older revision, or nothing for the first) to `after`. */
export function RevisionDiff({ before, after }: { before: Revision | undefined; after: Revision }) {
  const old = before === undefined ? undefined : settingRows(before);
  const changed = settingRows(after).filter(([, value], index) => old?.[index]?.[1] !== value);
  return (
    <div className="flex flex-col gap-4">
      <section aria-labelledby="diff-title" className="flex flex-col gap-1">
        <h4 id="diff-title" className="text-xs font-semibold text-muted">
          标题
        </h4>
        <p className="text-base font-semibold">
          <Marked parts={diffTokens(characters(before?.title ?? ''), characters(after.title))} />
        </p>
      </section>
      <section aria-labelledby="diff-body" className="flex flex-col gap-1">
        <h4 id="diff-body" className="text-xs font-semibold text-muted">
          正文
        </h4>
        <BodyDiff before={before?.content ?? ''} after={after.content ?? ''} />
      </section>
      <section aria-labelledby="diff-settings" className="flex flex-col gap-1">
        <h4 id="diff-settings" className="text-xs font-semibold text-muted">
          设置
        </h4>
        {changed.length === 0 ? (
          <p className="text-sm text-muted">设置没有变化</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm">
            {changed.map(([label, value]) => (
              <li key={label}>
                {label}：{old === undefined ? '' : `${old.find(([name]) => name === label)?.[1]} → `}
                <span className="font-medium">{value}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
