import { useState } from 'react';
import { Field, inputClass } from '../../ui/field';
import { DialogForm, EditorDialog } from './editor-dialog';

/** What the site keeps in a link: http(s), mailto, or a path of the site itself (#/download). */
export function linkProblem(href: string): string | undefined {
  if (href === '' || href.startsWith('#/')) return undefined;
  if (/^mailto:/i.test(href)) return undefined;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : '链接只能是 http、https 或 mailto 地址';
  } catch {
    return '请输入完整的地址，例如 https://example.com';
  }
}

export function LinkDialog({
  open,
  onOpenChange,
  initial,
  onSave,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initial: string;
  onSave: (href: string) => void;
}) {
  return (
    <EditorDialog
      open={open}
      onOpenChange={onOpenChange}
      title="链接"
      description="选中文字后设置链接；留空则去掉链接。"
    >
      {(finish) => <LinkForm initial={initial} onSave={(href) => finish(() => onSave(href))} />}
    </EditorDialog>
  );
}

function LinkForm({ initial, onSave }: { initial: string; onSave: (href: string) => void }) {
  const [href, setHref] = useState(initial);
  const [problem, setProblem] = useState<string>();
  return (
    <DialogForm
      onSubmit={() => {
        const value = href.trim();
        const found = linkProblem(value);
        setProblem(found);
        if (found === undefined) onSave(value);
      }}
    >
      <Field id="link-href" label="链接地址" error={problem}>
        <input
          id="link-href"
          type="text"
          inputMode="url"
          value={href}
          onChange={(event) => setHref(event.target.value)}
          className={inputClass}
          placeholder="https://"
          aria-invalid={problem !== undefined}
        />
      </Field>
    </DialogForm>
  );
}
