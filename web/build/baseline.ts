import browserslist from 'browserslist';
import { browserslistToTargets, type Targets } from 'lightningcss';
import { fileURLToPath } from 'node:url';

/**
 * The oldest engines the site serves: the `browserslist` query in web/package.json, read here
 * for every build that compiles for them (docs/site.md#the-oldest-browsers-served).
 */
export const baselineBrowsers: readonly string[] = browserslist(undefined, {
  path: fileURLToPath(new URL('..', import.meta.url)),
});

const transpilerNames: Record<string, string> = { chrome: 'chrome', safari: 'safari', ios_saf: 'ios' };

/** The baseline as the script compilers' targets (`chrome74`, `ios12` …): the oldest version of
 * each engine the query names. */
export const baselineScriptTargets: string[] = Object.entries(
  baselineBrowsers.reduce<Record<string, number>>((oldest, entry) => {
    const [name = '', range = ''] = entry.split(' ');
    const version = Number.parseFloat(range);
    const target = transpilerNames[name];
    if (target && !(version >= (oldest[target] ?? Infinity))) oldest[target] = version;
    return oldest;
  }, {}),
).map(([name, version]) => `${name}${version}`);

/** The baseline as Lightning CSS's targets. */
export const baselineStyleTargets: Targets = browserslistToTargets([...baselineBrowsers]);
