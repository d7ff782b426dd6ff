import Link from '@tiptap/extension-link';
import { TextSelection } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';

/**
 * Links as the site keeps them (docs/behaviour.md#announcement-markup), and as a word processor
 * makes them (docs/console.md#links): text typed at a link's end is plain text. TipTap makes a
 * link grow with what is typed after it whenever it links typed addresses itself (autolink), and
 * a Chinese sentence, with no space to stop it, ran on inside the link.
 */
export const BulletinLink = Link.extend({ inclusive: false }).configure({
  openOnClick: false,
  autolink: true,
  defaultProtocol: 'https',
  protocols: ['http', 'https', 'mailto'],
  HTMLAttributes: { rel: 'noopener noreferrer', target: '_blank' },
});

/**
 * When focus leaves the text, takes in the selection the browser shows. The browser reports a
 * selection made with Shift and the arrows a task after the key; a Shift+Tab that comes first
 * moves focus to the toolbar, and the editor, no longer focused, ignores the late report: 链接
 * then linked what it last knew (one character, or the next one typed).
 */
export function keepShownSelection(view: EditorView, event: FocusEvent): false {
  const shown = view.dom.ownerDocument.getSelection();
  const { selection, doc } = view.state;
  const within = (node: Node | null | undefined): node is Node => node != null && view.dom.contains(node);
  if (shown === null || !within(shown.anchorNode) || !within(shown.focusNode)) return false;
  // Focus still in the text (a picture's caption, say), or a picture or table cells selected.
  if (within(event.relatedTarget as Node | null) || !(selection instanceof TextSelection)) return false;
  let anchor: number, head: number;
  try {
    anchor = view.posAtDOM(shown.anchorNode, shown.anchorOffset);
    head = view.posAtDOM(shown.focusNode, shown.focusOffset);
  } catch {
    return false;
  }
  if (anchor === selection.anchor && head === selection.head) return false;
  view.dispatch(view.state.tr.setSelection(TextSelection.between(doc.resolve(anchor), doc.resolve(head))));
  return false;
}
