/**
 * Loaded with `--import` by the server's test scripts (package.json): every fast-check property
 * draws from one seed, so that `npm test` answers the same on every machine and a clean run
 * proves what CI will see. PROPERTY_SEED names another seed, or `random` for a new one each run,
 * to search further by hand (docs/testing.md#property-tests).
 */
import fc from 'fast-check';

const given = process.env.PROPERTY_SEED ?? '';
const seed = given === 'random' ? undefined : Number(given || 20_261_130);
if (seed !== undefined && !Number.isSafeInteger(seed)) {
  throw new Error(`PROPERTY_SEED must be an integer or "random", not ${JSON.stringify(given)}`);
}
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
