import { useState } from 'react';
import { Button } from '../../ui/button';
import { Field, inputClass } from '../../ui/field';
import { DialogForm, EditorDialog } from './editor-dialog';

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
  return (
    <EditorDialog
      open={open}
      onOpenChange={onOpenChange}
      title="图片说明"
      description="说明会给读屏软件朗读，图片加载不出来时也会显示。"
    >
      {(finish) => (
        <AltForm initial={initial} onSave={(alt) => finish(() => onSave(alt))} onRemove={() => finish(onRemove)} />
      )}
    </EditorDialog>
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
    <DialogForm
      onSubmit={() => onSave(alt.trim())}
      extra={
        <Button tone="danger" className="me-auto" onClick={onRemove}>
          删除图片
        </Button>
      }
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
    </DialogForm>
  );
}
