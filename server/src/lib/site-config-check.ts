/**
 * What is wrong with the operator's site config (SITE_CONFIG), one line per problem. A valid one
 * is told apart by Ajv, which every worker holds anyway for the routes' schemas; TypeBox's
 * typebox/value, whose messages name the problems, is loaded only when there is one to explain:
 * it would cost every worker 2 to 3 MB of heap for a check that passes
 * (docs/performance.md#footprint). Both read the same JSON Schema keywords the same way (patterns
 * with the `u` flag, lengths in code points).
 */
import { SiteConfig } from '@chat-site/contract';
import { Settings } from 'typebox/system';
import type * as TypeBoxSystem from 'typebox/system';
import type * as TypeBoxValue from 'typebox/value';
import { lazy } from './lazy.js';
import { compileBodyCheck } from './validation.js';

const loadValue = lazy<typeof TypeBoxValue>('typebox/value');
/** The settings of the TypeBox that loadValue loads: the same module as the one imported above
 * from source, another one in the built server (whose TypeBox is bundled by
 * scripts/bundle-vendor.mjs) and in the command line's bundle. */
const loadSystem = lazy<typeof TypeBoxSystem>('typebox/system');
let isSiteConfig: ((value: unknown) => boolean) | undefined;

export function siteConfigProblems(value: unknown): string[] {
  // Report every problem, not TypeBox's default first eight; the command line's own checks too.
  Settings.Set({ maxErrors: 100 });
  if ((isSiteConfig ??= compileBodyCheck(SiteConfig))(value)) return [];
  loadSystem().Settings.Set({ maxErrors: 100 });
  const problems: string[] = [];
  for (const error of loadValue().Value.Errors(SiteConfig, value)) {
    if (error.keyword === 'additionalProperties') continue; // reported per property below
    const where = error.instancePath === '' ? 'the top level' : error.instancePath;
    const message = error.keyword === 'boolean' ? 'is not a known setting' : error.message;
    problems.push(`SITE_CONFIG ${where}: ${message}`);
  }
  return problems;
}
