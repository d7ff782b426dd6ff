/**
 * What changed between two revisions, in words an operator reads: the body's text a paragraph
 * a line, compared line by line, and each changed line character by character (Chinese has no
 * spaces between words). A longest-common-subsequence table is enough at an announcement's
 * size; past `maxCells` the parts are shown as replaced whole rather than compared.
 */

export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

const maxCells = 2_000_000;

/** The edit from `before` to `after`, as runs of tokens kept, removed and added; where both
 * do, what was removed comes first, so a changed line reads old then new. */
export function diffTokens(before: string[], after: string[], join = ''): DiffPart[] {
  const n = before.length;
  const m = after.length;
  if (n * m > maxCells)
    return merge([...before.map((text) => part('removed', text)), ...after.map((text) => part('added', text))], join);
  // at(i, j): the longest common subsequence of before[i..] and after[j..], in one flat table.
  const table = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => table[i * (m + 1) + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = before[i] === after[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const old = before[i];
    const next = after[j];
    if (old !== undefined && old === next) {
      parts.push(part('same', old));
      i++;
      j++;
    } else if (next !== undefined && (old === undefined || at(i, j + 1) > at(i + 1, j))) {
      parts.push(part('added', next));
      j++;
    } else {
      parts.push(part('removed', old ?? ''));
      i++;
    }
  }
  return merge(parts, join);
}

const part = (kind: DiffPart['kind'], text: string): DiffPart => ({ kind, text });

/** Joins neighbouring parts of one kind, so a changed word reads as one mark. */
function merge(parts: DiffPart[], join: string): DiffPart[] {
  const merged: DiffPart[] = [];
  for (const next of parts) {
    const last = merged.at(-1);
    if (last?.kind === next.kind) last.text += join + next.text;
    else merged.push({ ...next });
  }
  return merged;
}

/** Characters as a reader counts them (a surrogate pair or emoji is one). */
export const characters = (text: string): string[] => Array.from(text);

/** The text of announcement HTML, one block (paragraph, heading, item, row) a line; a picture
 * is a line of its own, so adding or removing one shows. */
export function htmlToLines(html: string): string[] {
  const marked = html.replace(/<\/(p|h[1-6]|li|blockquote|pre|tr|td|th)>|<br\s*\/?>|<hr\s*\/?>/gi, '$&\n');
  const doc = new DOMParser().parseFromString(marked, 'text/html');
  for (const image of Array.from(doc.querySelectorAll('img'))) {
    const alt = image.getAttribute('alt') ?? '';
    image.replaceWith(`\n[图片${alt === '' ? '' : `：${alt}`}]\n`);
  }
  return (doc.body.textContent ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
