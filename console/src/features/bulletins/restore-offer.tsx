import { Button } from '../../ui/button';

const keptTime = new Intl.DateTimeFormat('zh-CN', { dateStyle: 'short', timeStyle: 'short' });

/** Offers the text this browser kept from an edit that was never saved. */
export function RestoreOffer({
  at,
  onRestore,
  onDiscard,
}: {
  at: number;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  return (
    <div
      role="region"
      aria-label="未保存的内容"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-brand px-3 py-2 text-sm"
    >
      <p className="flex-1">本浏览器保存了 {keptTime.format(at)} 未保存的内容。</p>
      <Button tone="primary" onClick={onRestore}>
        恢复未保存的内容
      </Button>
      <Button onClick={onDiscard}>丢弃</Button>
    </div>
  );
}
