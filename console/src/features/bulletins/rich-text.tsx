import Image from '@tiptap/extension-image';
import { TableKit } from '@tiptap/extension-table';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useCallback, useEffect, useRef, useState } from 'react';
import { NodeSelection, Selection, TextSelection } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { BulletinLink } from './editor-links';
import { FormatToolbar } from './format-toolbar';
import { KeptSelection } from './kept-selection';
import { pictureTypes, uploadPicture } from './upload-image';

/** Pictures keep the width and height they were uploaded with, so the site reserves their space
 * before they load (the allowlist keeps both attributes). */
const Picture = Image.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      width: { default: null },
      height: { default: null },
    };
  },
}).configure({ allowBase64: false });

/** Only what the site's allowlist keeps (docs/behaviour.md#announcement-markup): anything else
 * pasted in (Word's styles and classes, a web page's layout) has no place in this schema and is
 * dropped, while its headings, lists, emphasis, links, quotes, pictures and tables stay. */
const extensions = [
  StarterKit.configure({
    heading: { levels: [1, 2, 3, 4] },
    link: false,
  }),
  BulletinLink,
  KeptSelection,
  Picture,
  TableKit.configure({ table: { resizable: false } }),
];

/** style="…" (or '…', or unquoted) attributes in pasted markup. */
const inlineStyles = /\sstyle\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi;

/** onclick="…" and the like. */
const inlineHandlers = /\son[a-z]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi;

interface Upload {
  id: number;
  name: string;
  progress: number;
  error?: string;
}

export interface RichTextProps {
  /** The HTML to start from (toEditorHtml's form). */
  initialHtml: string;
  onChange: (html: string) => void;
  /** Bumped to replace the text with initialHtml (another version taken in a conflict). */
  resetKey: number;
  describedBy?: string;
  /** The editable element's id, for moving focus to it. */
  id?: string;
  /** The element that names it: the simplified body's 正文 unless another language's pane. */
  labelledBy?: string;
}

/** The announcement's body: a ProseMirror editor (TipTap) with a toolbar, and pictures uploaded
 * from a paste, a drop or a file picker, with their progress shown above the text. */
export function RichText({
  initialHtml,
  onChange,
  resetKey,
  describedBy,
  id,
  labelledBy = 'bulletin-body-label',
}: RichTextProps) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [pictureOpen, setPictureOpen] = useState(false);
  const editorRef = useRef<Editor | null>(null);

  const upload = useCallback((files: File[], at?: number) => {
    for (const file of files) {
      const id = Date.now() + Math.random();
      setUploads((old) => [...old, { id, name: file.name || '图片', progress: 0 }]);
      const set = (patch: Partial<Upload>) =>
        setUploads((old) => old.map((entry) => (entry.id === id ? { ...entry, ...patch } : entry)));
      uploadPicture(file, (progress) => set({ progress }))
        .then((picture) => {
          setUploads((old) => old.filter((entry) => entry.id !== id));
          const editor = editorRef.current;
          if (editor === null || editor.isDestroyed) return;
          const node = {
            type: 'image',
            attrs: { src: `/v1/${picture.path}`, alt: '', width: picture.width, height: picture.height },
          };
          const position = at === undefined ? undefined : Math.min(at, editor.state.doc.content.size);
          const chain = editor.chain().focus();
          (position === undefined ? chain.insertContent(node) : chain.insertContentAt(position, node))
            // The caret goes into the text after the picture, never onto the picture itself:
            // what is typed or pasted next follows it rather than replacing it.
            .command(({ tr }) => {
              const end = tr.selection.to;
              let after = Selection.findFrom(tr.doc.resolve(end), 1, true);
              const paragraph = tr.doc.type.schema.nodes.paragraph;
              if (after === null && paragraph !== undefined) {
                // The picture ends the text: a paragraph after it takes the caret.
                tr.insert(end, paragraph.create());
                after = TextSelection.create(tr.doc, end + 1);
              }
              if (after !== null) tr.setSelection(after);
              return true;
            })
            .run();
        })
        .catch((error: unknown) => set({ error: error instanceof Error ? error.message : '上传失败' }));
    }
  }, []);

  const picturesOf = (list: FileList | null | undefined): File[] =>
    [...(list ?? [])].filter((file) => pictureTypes[file.type] !== undefined);

  const editor = useEditor({
    extensions,
    content: initialHtml,
    injectCSS: false,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        class: 'prose-bulletin min-h-64 px-4 py-3',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelledBy,
        ...(describedBy !== undefined && { 'aria-describedby': describedBy }),
        ...(id !== undefined && { id }),
      },
      // Word and web pages put inline styles on everything, and a page may carry event handlers;
      // the schema drops both anyway, but parsing them first would have the console's policy
      // refuse each one (style-src, script-src).
      transformPastedHTML: (html) => html.replace(inlineStyles, '').replace(inlineHandlers, ''),
      // Enter on a selected picture opens its 图片说明, as a click on 图片说明 does.
      handleKeyDown: (view, event) => {
        const { selection } = view.state;
        const picture = selection instanceof NodeSelection && selection.node.type.name === 'image';
        if (!picture || event.key !== 'Enter' || event.isComposing) return false;
        setPictureOpen(true);
        return true;
      },
      handlePaste: (_view, event) => {
        const files = picturesOf(event.clipboardData?.files);
        if (files.length === 0) return false;
        upload(files);
        return true;
      },
      handleDrop: (view: EditorView, event, _slice, moved) => {
        if (moved) return false;
        const files = picturesOf(event.dataTransfer?.files);
        if (files.length === 0) return false;
        event.preventDefault();
        upload(files, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos);
        return true;
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.getHTML()),
  });
  useEffect(() => {
    editorRef.current = editor;
  }, [editor]);

  // A conflict resolved with the other operator's version puts that text in.
  const lastReset = useRef(resetKey);
  useEffect(() => {
    if (lastReset.current === resetKey) return;
    lastReset.current = resetKey;
    editor.commands.setContent(initialHtml, { emitUpdate: false });
  }, [editor, initialHtml, resetKey]);

  return (
    <div className="console-editor overflow-clip rounded-xl border border-line bg-surface focus-within:border-ring">
      <FormatToolbar
        editor={editor}
        onPictures={(files) => upload(files)}
        pictureOpen={pictureOpen}
        onPictureOpenChange={setPictureOpen}
      />
      {uploads.length > 0 && (
        <ul aria-label="图片上传" className="flex flex-col gap-2 border-b border-line px-4 py-2">
          {uploads.map((entry) => (
            <li key={entry.id} className="flex items-center gap-3 text-xs">
              <span className="w-32 truncate">{entry.name}</span>
              {entry.error === undefined ? (
                <progress
                  aria-label={`上传 ${entry.name}`}
                  max={100}
                  value={Math.round(entry.progress * 100)}
                  className="h-2 flex-1 accent-brand"
                />
              ) : (
                <span role="alert" className="flex-1 text-danger">
                  {entry.error}
                </span>
              )}
              {entry.error !== undefined && (
                <button
                  type="button"
                  className="text-muted underline"
                  onClick={() => setUploads((old) => old.filter((item) => item.id !== entry.id))}
                >
                  关闭
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <EditorContent editor={editor} />
    </div>
  );
}
