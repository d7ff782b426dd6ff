/**
 * Announcement HTML names hosted pictures by a path relative to the API, `file/preview/<key>`,
 * which the site resolves against whichever API address it reached
 * (docs/behaviour.md#announcement-markup). The console is served by that API, so in the editor
 * those pictures are shown from `/v1/file/preview/<key>`, and saved under their relative path
 * again.
 */
const hostedPrefix = 'file/';
const shownPrefix = '/v1/file/';

function mapImages(html: string, map: (src: string) => string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  let changed = false;
  for (const image of doc.body.querySelectorAll('img[src]')) {
    const src = image.getAttribute('src') ?? '';
    const next = map(src);
    if (next !== src) {
      image.setAttribute('src', next);
      changed = true;
    }
  }
  return changed ? doc.body.innerHTML : html;
}

export const toEditorHtml = (stored: string): string =>
  mapImages(stored, (src) => (src.startsWith(hostedPrefix) ? `/v1/${src}` : src));

export const fromEditorHtml = (edited: string): string =>
  mapImages(edited, (src) => (src.startsWith(shownPrefix) ? src.slice('/v1/'.length) : src));

/** An editor holding nothing but empty paragraphs saves as an empty body. */
export const isEmptyHtml = (html: string): boolean => /^(<p>\s*<\/p>)*$/.test(html.trim());
