import { useRef, useState } from 'react';
import { Button } from '../../ui/button';
import { Close, Modal } from '../../ui/dialog';
import { Field, inputClass } from '../../ui/field';

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
  // Set when 确定 closes it: the link is set and the editor has taken focus back already.
  const saved = useRef(false);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="链接"
      description="选中文字后设置链接；留空则去掉链接。"
      onCloseAutoFocus={(event) => {
        if (saved.current) event.preventDefault();
        saved.current = false;
      }}
    >
      {open && (
        <LinkForm
          initial={initial}
          onSave={(href) => {
            saved.current = true;
            onSave(href);
          }}
          onDone={() => onOpenChange(false)}
        />
      )}
    </Modal>
  );
}

function LinkForm({
  initial,
  onSave,
  onDone,
}: {
  initial: string;
  onSave: (href: string) => void;
  onDone: () => void;
}) {
  const [href, setHref] = useState(initial);
  const [problem, setProblem] = useState<string>();
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        // The dialog sits in a portal, but React bubbles its submit to the editor's form.
        event.stopPropagation();
        const value = href.trim();
        const found = linkProblem(value);
        setProblem(found);
        if (found !== undefined) return;
        onSave(value);
        onDone();
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
      <div className="flex justify-end gap-2">
        <Close asChild>
          <Button>取消</Button>
        </Close>
        <Button type="submit" tone="primary">
          确定
        </Button>
      </div>
    </form>
  );
}
