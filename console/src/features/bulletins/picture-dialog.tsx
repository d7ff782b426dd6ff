import { useRef, useState } from 'react';
import { Button } from '../../ui/button';
import { Close, Modal } from '../../ui/dialog';
import { Field, inputClass } from '../../ui/field';

/** 图片说明: the selected picture's alt text, which the site shows to screen readers and when the
 * picture cannot load, and 删除图片 (docs/console.md#pictures). Both leave focus in the text. */
export function PictureDialog({
  open,
  onOpenChange,
  initial,
  onSave,
  onRemove,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initial: string;
  onSave: (alt: string) => void;
  onRemove: () => void;
}) {
  // Set when the dialog closes by saving or removing: the editor has taken focus back already.
  const done = useRef(false);
  const finish = (step: () => void) => {
    done.current = true;
    step();
    onOpenChange(false);
  };
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="图片说明"
      description="说明会给读屏软件朗读，图片加载不出来时也会显示。"
      onCloseAutoFocus={(event) => {
        if (done.current) event.preventDefault();
        done.current = false;
      }}
    >
      {open && (
        <AltForm initial={initial} onSave={(alt) => finish(() => onSave(alt))} onRemove={() => finish(onRemove)} />
      )}
    </Modal>
  );
}

function AltForm({
  initial,
  onSave,
  onRemove,
}: {
  initial: string;
  onSave: (alt: string) => void;
  onRemove: () => void;
}) {
  const [alt, setAlt] = useState(initial);
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        // The dialog sits in a portal, but React bubbles its submit to the editor's form.
        event.stopPropagation();
        onSave(alt.trim());
      }}
    >
      <Field id="picture-alt" label="说明文字" hint="写出图片里要紧的内容，例如“5.0 版新的聊天界面”。">
        <input
          id="picture-alt"
          type="text"
          value={alt}
          maxLength={300}
          onChange={(event) => setAlt(event.target.value)}
          className={inputClass}
          aria-describedby="picture-alt-hint"
        />
      </Field>
      <div className="flex flex-wrap justify-end gap-2">
        <Button tone="danger" className="me-auto" onClick={onRemove}>
          删除图片
        </Button>
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
