import { encode } from 'uqr';
import { t } from '../../../lib/i18n';
import { qrBoxClass } from './qr-box';

/** Quiet zone around the code, in modules: the four the QR standard asks for. */
const margin = 4;

/** The dark modules as one SVG path: a 1×1 square per module. */
function modulePath(data: boolean[][]): string {
  const squares: string[] = [];
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) squares.push(`M${x + margin} ${y + margin}h1v1h-1z`);
    }),
  );
  return squares.join('');
}

/**
 * A QR code of `url`, made here in the page, so no outside service learns who visits. Dark on
 * white in both themes: phone cameras read that reliably. The in-app browsers' guide shows it too.
 */
export function QrCode({ url, className }: { url: string; className: string }) {
  const qr = encode(url, { ecc: 'M', border: 0 });
  const size = qr.size + margin * 2;
  return (
    <svg
      role="img"
      aria-label={t('download.qrLabel')}
      data-testid="download-qr"
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className={`${className} shrink-0 rounded-xl`}
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={modulePath(qr.data)} fill="#000" />
    </svg>
  );
}

/** The download screen's code for a computer's visitor, leading a phone to the same screen. */
export default function DownloadQr({ url }: { url: string }) {
  return (
    <aside className={qrBoxClass}>
      <QrCode url={url} className="size-40" />
      <div>
        <h2 className="text-lg font-semibold">{t('download.qrTitle')}</h2>
        <p className="mt-1 text-sm text-muted">{t('download.qrText')}</p>
      </div>
    </aside>
  );
}
