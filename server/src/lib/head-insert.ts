/**
 * `html` placed just before the page's `</head>`, or at its start when it has none. The
 * replacement is a function: a string would expand `$&`, `$'` and `` $` `` written in a
 * setting (a product name such as `星聊$'`) into pieces of the page.
 */
export function beforeHeadEnd(page: string, html: string): string {
  return page.includes('</head>') ? page.replace('</head>', () => `${html}\n</head>`) : `${html}\n${page}`;
}
