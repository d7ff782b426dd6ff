// Loader hooks for the web unit tests (web/test/setup.mjs registers them). Vite replaces
// `import.meta.env` in the site's modules at build time; Node has none, so a module reading
// `import.meta.env.SSR` at load (src/config/site-config.ts) would throw. The same replacement is
// made here, on the JavaScript tsx has already made of each module under web/src. An imported
// picture is, as in Vite, its address.
const webSrc = new URL('../src/', import.meta.url).href;
const env = JSON.stringify({ SSR: false, DEV: false, PROD: true, MODE: 'test', BASE_URL: '/' });

export async function load(url, context, nextLoad) {
  if (url.startsWith(webSrc) && url.endsWith('.svg')) {
    return { format: 'module', source: `export default ${JSON.stringify(url)};`, shortCircuit: true };
  }
  const result = await nextLoad(url, context);
  if (!url.startsWith(webSrc) || result.source == null) return result;
  const source = typeof result.source === 'string' ? result.source : new TextDecoder().decode(result.source);
  return { ...result, source: source.replaceAll('import.meta.env', `(${env})`) };
}
