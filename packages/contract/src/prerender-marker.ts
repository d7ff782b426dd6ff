/**
 * The landing page is prerendered into index.html when the site is built (web/build/prerender.ts),
 * but the operator may change the site settings later without rebuilding. So the build renders
 * it with a marker in place of each text setting (the product name, the web client's address …)
 * and the page route fills in the current values on every start. Shared by the build and the
 * server, and free of imports so the build can load it.
 *
 * A marker is the setting's name between two private-use characters: nothing a renderer
 * escapes, and nothing real text contains.
 */
const edge = '\uE000';

export const prerenderMarker = (field: string): string => `${edge}${field}${edge}`;

/** The settings the build renders with: every text field replaced by its marker. */
export function markedSettings<T extends object>(settings: T): T {
  return Object.fromEntries(
    Object.entries(settings).map(([field, value]) => [
      field,
      typeof value === 'string' ? prerenderMarker(field) : value,
    ]),
  ) as T;
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => htmlEntities[char] ?? char);

/** `html` with every marker replaced by that setting's current value, escaped for HTML text
 * and attributes alike; a marker of a setting that is no longer text becomes empty. */
export function fillPrerenderMarkers(html: string, settings: object): string {
  const values = settings as Record<string, unknown>;
  return html.replace(new RegExp(`${edge}(\\w+)${edge}`, 'g'), (_, field: string) => {
    const value = values[field];
    return typeof value === 'string' ? escapeHtml(value) : '';
  });
}
