import Link from '@tiptap/extension-link';

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
