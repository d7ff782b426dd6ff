/**
 * What a share picture shows, as the element tree satori lays out: the site's dark theme and
 * brand gradient (web/src/styles.css), its logo (web/public/favicon.svg), the product name, and
 * either an announcement's title and date or, for the site itself, its one line.
 */
export const pictureWidth = 1200;
export const pictureHeight = 630;

/** The site's dark theme (web/src/styles.css :root). */
const colours = { bg: '#0b1220', fg: '#e6ebf5', muted: '#97a3b8', brand: '#4f8cff', brand2: '#7c6cff' };

/** web/public/favicon.svg, the site's logo. */
const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs><linearGradient id="a" x1="0" y1="0" x2="1" y2="1">' +
  '<stop offset="0" stop-color="#0ea5e9"/><stop offset="1" stop-color="#6366f1"/></linearGradient></defs>' +
  '<path d="M20 8h24a14 14 0 0 1 14 14v14a14 14 0 0 1-14 14H29l-11.6 8.3c-1.4 1-3.2-.3-2.8-1.9L16.8 49.4A14 14 0 0 1 6 36V22A14 14 0 0 1 20 8z" fill="url(#a)"/>' +
  '<polygon points="32,15 35.5,23.1 45.3,23.7 37.7,29.9 40.2,39.3 32,34 23.8,39.3 26.3,29.9 18.7,23.7 28.5,23.1" fill="#fff" stroke="#fff" stroke-width="2.5" stroke-linejoin="round"/>' +
  '<circle cx="50" cy="12" r="4" fill="#f59e0b"/></svg>';
const logoSrc = `data:image/svg+xml;base64,${Buffer.from(logoSvg).toString('base64')}`;

/** An element as satori reads it (React's shape, without React). */
export interface Node {
  type: string;
  props: {
    style?: Record<string, string | number>;
    children?: Node | string | (Node | string)[];
    [key: string]: unknown;
  };
}

const element = (type: string, style: Record<string, string | number>, children?: Node['props']['children']): Node => ({
  type,
  props: { style, ...(children !== undefined && { children }) },
});

function brand(product: string, size: number): Node {
  return element('div', { display: 'flex', alignItems: 'center', gap: size / 3 }, [
    { type: 'img', props: { src: logoSrc, width: size, height: size, style: { width: size, height: size } } },
    element('div', { fontSize: size * 0.56, fontWeight: 700, color: colours.fg }, product),
  ]);
}

function frame(children: Node[], justify: string): Node {
  const content = element(
    'div',
    { display: 'flex', flexDirection: 'column', justifyContent: justify, flexGrow: 1, padding: '64px 80px 60px' },
    children,
  );
  const bar = element('div', {
    height: 12,
    backgroundImage: `linear-gradient(90deg, ${colours.brand}, ${colours.brand2})`,
  });
  return element(
    'div',
    {
      width: pictureWidth,
      height: pictureHeight,
      display: 'flex',
      flexDirection: 'column',
      backgroundColor: colours.bg,
      backgroundImage: `radial-gradient(circle at 100% 0%, ${colours.brand2}55 0%, ${colours.bg}00 45%)`,
    },
    [content, bar],
  );
}

/** An announcement: the product at the top, the title in up to three lines (ellipsised past
 * them), its date at the bottom. */
export function announcementCard(title: string, date: string, product: string): Node {
  return frame(
    [
      brand(product, 72),
      element(
        'div',
        {
          display: 'block',
          width: pictureWidth - 2 * 80,
          lineClamp: 3,
          fontSize: 64,
          fontWeight: 700,
          lineHeight: 1.35,
          color: colours.fg,
          wordBreak: 'break-word',
        },
        title,
      ),
      element('div', { fontSize: 30, color: colours.muted }, date),
    ],
    'space-between',
  );
}

/** The site's own picture: the logo and product name large, with its line below. */
export function siteCard(product: string, line: string): Node {
  return frame(
    [
      element('div', { display: 'flex', flexDirection: 'column', gap: 36 }, [
        brand(product, 150),
        element('div', { fontSize: 44, color: colours.muted }, line),
      ]),
    ],
    'center',
  );
}
