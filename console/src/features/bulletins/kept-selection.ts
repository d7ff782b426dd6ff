import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, TextSelection, type EditorState, type Selection } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';

/** Whether focus is outside the text. */
const away = new PluginKey<boolean>('keptSelection');

/**
 * The text's selection while focus is elsewhere (docs/console.md#links): the one the browser
 * shows when focus leaves, and still marked while focus is in the toolbar or the link dialog,
 * where the browser draws no selection, so the operator sees what 确定 will link.
 */
export const KeptSelection = Extension.create({
  name: 'keptSelection',
  addProseMirrorPlugins() {
    return [
      new Plugin<boolean>({
        key: away,
        state: { init: () => false, apply: (tr, old) => (tr.getMeta(away) as boolean | undefined) ?? old },
        props: {
          handleDOMEvents: {
            blur: (view, event) => {
              const tr = view.state.tr.setMeta(away, true);
              const shown = shownSelection(view, event);
              view.dispatch(shown === undefined ? tr : tr.setSelection(shown));
              return false;
            },
            focus: (view) => {
              view.dispatch(view.state.tr.setMeta(away, false));
              return false;
            },
          },
          decorations: (state: EditorState) => {
            const { selection } = state;
            if (away.getState(state) !== true || selection.empty || !(selection instanceof TextSelection)) return null;
            return DecorationSet.create(state.doc, [
              Decoration.inline(selection.from, selection.to, { class: 'kept-selection' }),
            ]);
          },
        },
      }),
    ];
  },
});

/**
 * The selection the browser shows in the text, when the editor knows another. The browser
 * reports a selection made with Shift and the arrows a task after the key; a Shift+Tab that
 * comes first moves focus to the toolbar, and the editor, no longer focused, ignores the late
 * report: 链接 then linked what it last knew (one character, or the next one typed).
 */
function shownSelection(view: EditorView, event: Event): Selection | undefined {
  const shown = view.dom.ownerDocument.getSelection();
  const { selection, doc } = view.state;
  const within = (node: unknown): node is Node => node instanceof Node && view.dom.contains(node);
  if (shown === null || !within(shown.anchorNode) || !within(shown.focusNode)) return undefined;
  // Focus still in the text, or a picture or table cells selected: the editor's own.
  if (within((event as FocusEvent).relatedTarget) || !(selection instanceof TextSelection)) return undefined;
  try {
    const anchor = view.posAtDOM(shown.anchorNode, shown.anchorOffset);
    const head = view.posAtDOM(shown.focusNode, shown.focusOffset);
    if (anchor === selection.anchor && head === selection.head) return undefined;
    return TextSelection.between(doc.resolve(anchor), doc.resolve(head));
  } catch {
    return undefined;
  }
}
