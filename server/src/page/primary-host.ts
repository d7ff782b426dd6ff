import { primaryHostClass } from '@chat-site/contract';

/**
 * On the primary domain the page's root element says so before any script runs, so what only
 * that domain shows (the header's member centre) is drawn in the first paint instead of pushing
 * the header's links aside once the site's script has worked it out. The page is kept once for
 * the primary domain and once for every other host, so it is marked once.
 */
export function withPrimaryHostMark(page: string, primaryHost: boolean): string {
  if (!primaryHost) return page;
  return page.replace(/<html\b([^>]*)>/i, (tag: string, attributes: string) => {
    const classes = /\sclass="([^"]*)"/i.exec(attributes);
    if (classes === null) return `<html${attributes} class="${primaryHostClass}">`;
    return tag.replace(classes[0], () => ` class="${`${classes[1] ?? ''} ${primaryHostClass}`.trim()}"`);
  });
}
