import { useEditorState, type Editor } from '@tiptap/react';
import { useRef, useState } from 'react';
import { Toolbar } from '../../ui/toolbar';
import { LinkDialog } from './link-dialog';
import { PictureDialog } from './picture-dialog';
import { pictureTypes } from './upload-image';

const toolClass = (active: boolean) =>
  `min-h-9 min-w-9 rounded-md px-2 text-sm ${active ? 'bg-brand/20 text-fg' : 'text-muted hover:bg-surface-2 hover:text-fg'}`;

/** The editor's toolbar: one Tab stop (ui/toolbar.tsx), sticky under the console's header while
 * a long text scrolls (docs/console.md#keyboard). With a picture selected it offers 图片说明. */
export function FormatToolbar({
  editor,
  onPictures,
  pictureOpen,
  onPictureOpenChange,
}: {
  editor: Editor;
  onPictures: (files: File[]) => void;
  pictureOpen: boolean;
  onPictureOpenChange: (open: boolean) => void;
}) {
  const [linkOpen, setLinkOpen] = useState(false);
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bullet: current.isActive('bulletList'),
      ordered: current.isActive('orderedList'),
      quote: current.isActive('blockquote'),
      link: current.isActive('link'),
      table: current.isActive('table'),
      picture: current.isActive('image'),
    }),
  });
  // The name starts with what the button shows, so speech input ("click H2") finds it too.
  const tool = (label: string, active: boolean, run: () => void, text = label) => (
    <button
      key={label}
      type="button"
      aria-label={text === label ? label : `${text} ${label}`}
      aria-pressed={active}
      title={label}
      onMouseDown={(event) => event.preventDefault()}
      onClick={run}
      className={toolClass(active)}
    >
      {text}
    </button>
  );
  const chain = () => editor.chain().focus();
  return (
    <Toolbar
      label="格式"
      className="console-toolbar flex flex-wrap items-center gap-1 border-b border-line bg-surface px-2 py-1.5"
    >
      {tool('加粗', state.bold, () => chain().toggleBold().run(), 'B')}
      {tool('斜体', state.italic, () => chain().toggleItalic().run(), 'I')}
      {tool('章节', state.h2, () => chain().toggleHeading({ level: 2 }).run(), 'H2')}
      {tool('小节', state.h3, () => chain().toggleHeading({ level: 3 }).run(), 'H3')}
      {tool('无序', state.bullet, () => chain().toggleBulletList().run(), '• 列表')}
      {tool('有序', state.ordered, () => chain().toggleOrderedList().run(), '1. 列表')}
      {tool('引用', state.quote, () => chain().toggleBlockquote().run())}
      {tool('链接', state.link, () => setLinkOpen(true))}
      <PictureButton onPictures={onPictures} />
      {state.picture && (
        <button
          type="button"
          aria-haspopup="dialog"
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPictureOpenChange(true)}
          className={toolClass(true)}
        >
          图片说明
        </button>
      )}
      {tool(
        state.table ? '删除表格' : '插入表格',
        state.table,
        () =>
          state.table
            ? chain().deleteTable().run()
            : chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
        state.table ? '删除表格' : '表格',
      )}
      {state.table && (
        <>
          {tool('添加行', false, () => chain().addRowAfter().run(), '+行')}
          {tool('添加列', false, () => chain().addColumnAfter().run(), '+列')}
        </>
      )}
      <LinkDialog
        open={linkOpen}
        onOpenChange={setLinkOpen}
        initial={(editor.getAttributes('link').href as string | undefined) ?? ''}
        onSave={(href) => {
          if (href === '') chain().extendMarkRange('link').unsetLink().run();
          else chain().extendMarkRange('link').setLink({ href }).run();
        }}
      />
      <PictureDialog
        open={pictureOpen}
        onOpenChange={onPictureOpenChange}
        initial={(editor.getAttributes('image').alt as string | null | undefined) ?? ''}
        onSave={(alt) => chain().updateAttributes('image', { alt }).run()}
        onRemove={() => chain().deleteSelection().run()}
      />
    </Toolbar>
  );
}

/** 图片: picks pictures from the device, as a paste or a drop would bring them. */
function PictureButton({ onPictures }: { onPictures: (files: File[]) => void }) {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        aria-label="图片（插入）"
        title="插入图片"
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => picker.current?.click()}
        className={toolClass(false)}
      >
        图片
      </button>
      <input
        ref={picker}
        type="file"
        accept={Object.keys(pictureTypes).join(',')}
        multiple
        hidden
        onChange={(event) => {
          onPictures([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
    </>
  );
}
