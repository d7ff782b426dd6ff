import { readAppConfig, type Bulletin, type CdnSettings } from '@chat-site/contract';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AnnouncementArticle, FixedApiProvider, setLanguage } from '../../../web/src/console-surface/preview';
import { applyTheme, type ConsoleTheme } from '../lib/theme';
import { previewMessage, type PreviewMessage } from '../lib/preview-message';
import '../console.css';

/**
 * The preview frame (preview.html): an announcement that is not public yet, drawn by the site's
 * own article component in the site's styles, at the width of the frame the console gives it.
 * The console sends the text by postMessage; only messages from the console's own origin count.
 */
function Preview({ cdn }: { cdn: CdnSettings }) {
  const [shown, setShown] = useState<{ bulletin: Bulletin; theme: ConsoleTheme }>();
  useEffect(() => {
    const receive = (event: MessageEvent<PreviewMessage>) => {
      if (event.origin !== window.location.origin || event.data?.type !== previewMessage) return;
      const { bulletin, theme, language } = event.data;
      applyTheme(theme);
      // The site's words in that language first (its catalog loads), then the article.
      void setLanguage(language ?? 'zh-CN').then(() => setShown({ bulletin, theme }));
    };
    window.addEventListener('message', receive);
    window.parent.postMessage({ type: `${previewMessage}-ready` }, window.location.origin);
    return () => window.removeEventListener('message', receive);
  }, []);
  if (shown === undefined) return null;
  return (
    <FixedApiProvider connection={{ apiAddr: window.location.origin, cdn }}>
      <main className="mx-auto max-w-[600px] px-4 py-6 md:py-10">
        <AnnouncementArticle bulletin={shown.bulletin} />
      </main>
    </FixedApiProvider>
  );
}

async function start(): Promise<void> {
  const [cdn] = await Promise.all([
    fetch('/v1/common/appconfig')
      .then((response) => (response.ok ? response.json() : undefined))
      .then((body: unknown) => readAppConfig(body))
      .catch(() => ({ useCdn: false, bucketUrl: '' })),
    setLanguage('zh-CN'),
  ]);
  const root = document.getElementById('root');
  if (root !== null) {
    createRoot(root).render(
      <StrictMode>
        <Preview cdn={cdn} />
      </StrictMode>,
    );
  }
}

void start();
