import cascadeLayers from '@csstools/postcss-cascade-layers';
import { transform } from 'lightningcss';
import postcss from 'postcss';
import { baselineStyleTargets } from './baseline';
import { assertBaselineStyles } from './baseline-styles';
import { legacyRules } from './legacy-rules';

/**
 * The site's stylesheet for the oldest engines it serves (docs/site.md#the-oldest-browsers-served).
 * Tailwind writes nearly all of it inside cascade layers, which an engine without them (Chromium
 * 99, Safari 15.4) drops whole: the layers become plain rules whose specificity keeps their order.
 * Lightning CSS then compiles for the baseline what it can: color-mix() of known colours, oklch()
 * and lab() colours into rgb(), nesting, media ranges; legacy-rules.ts what is left. Fails the build on anything left that the
 * baseline lacks without a fallback (baseline-styles.ts).
 */
export async function legacyStylesheet(css: string): Promise<string> {
  const flat = await postcss([cascadeLayers()]).process(css, { from: undefined });
  const { code } = transform({
    filename: 'legacy.css',
    code: Buffer.from(flat.css),
    minify: true,
    targets: baselineStyleTargets,
  });
  const legacy = (await postcss([legacyRules]).process(code.toString(), { from: undefined })).css;
  assertBaselineStyles(legacy);
  return legacy;
}
