/**
 * What a save says about an announcement's other languages, as the repository takes it
 * (docs/behaviour.md#announcements-in-every-language). A traditional title or body sent is the
 * operator's own: from then on that version no longer follows the simplified, until a save with
 * `reconvert: 1` (重新转换). English is written by hand or not at all.
 */
import type { LanguageVersions } from '@chat-site/contract/admin';
import type { Version } from './repository.js';

interface LanguageFields {
  title_tw?: string;
  content_tw?: string;
  reconvert?: 0 | 1;
  title_en?: string;
  content_en?: string;
}

export interface LanguagePatch {
  traditional?: Version | 'convert';
  english?: Version;
}

/** `stored`: the versions the announcement has now (nothing yet for a new one); `clean`: how
 * body HTML is made publishable. */
export function languagePatch(
  body: LanguageFields,
  stored: Pick<LanguageVersions, 'title_tw' | 'content_tw' | 'title_en' | 'content_en'> | undefined,
  clean: (html: string) => string,
  made: () => Version,
): LanguagePatch {
  const patch: LanguagePatch = {};
  if (body.reconvert === 1) patch.traditional = 'convert';
  else if (body.title_tw !== undefined || body.content_tw !== undefined) {
    const current = stored === undefined ? made() : { title: stored.title_tw, content: stored.content_tw };
    patch.traditional = {
      title: body.title_tw?.trim() || current.title,
      content: body.content_tw === undefined ? current.content : clean(body.content_tw),
    };
  }
  if (body.title_en !== undefined || body.content_en !== undefined) {
    patch.english = {
      title: (body.title_en ?? stored?.title_en ?? '').trim(),
      content: body.content_en === undefined ? (stored?.content_en ?? '') : clean(body.content_en),
    };
  }
  return patch;
}
