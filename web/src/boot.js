/* global document, location, matchMedia */
// Runs before the first paint: the build writes it inline into <head> (vite.config.ts,
// inlineHead), and the server's CSP allows it by its hash.
// 1. Puts the stored theme on the page root, so a light-theme visitor never sees a dark flash;
//    the same rule as applyTheme in src/features/theme/theme.ts.
// 2. Turns the prerendered pages off (index.html carries them in simplified Chinese) when the
//    visitor will get another language (the order of pickLanguage in src/lib/i18n.ts); the
//    site's script then renders the screen in that language. src/boot-route.js does the rest.
// 3. Hides the prerendered landing page on any other route. On a slow network the page arrives
//    in pieces and the browser paints what it has, before src/boot-route.js (at the end of
//    <body>) swaps in the route's own frame: the landing page would flash up, and its lazy
//    pictures would start loading. Hidden from the start, it is never laid out.
(function () {
  var root = document.documentElement;
  function read(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  }
  var theme = read('chat-site.theme');
  var dark = theme === 'light' ? false : theme === 'system' ? matchMedia('(prefers-color-scheme: dark)').matches : true;
  root.classList.toggle('dark', dark);
  root.classList.toggle('light', !dark);
  root.style.colorScheme = dark ? 'dark' : 'light';

  function language(tag) {
    var parts = String(tag || '')
      .trim()
      .toLowerCase()
      .replace(/_/g, '-')
      .split('-');
    if (parts[0] === 'en') return 'en';
    if (parts[0] !== 'zh') return null;
    return /-(hant|tw|hk|mo)(-|$)/.test('-' + parts.slice(1).join('-') + '-') ? 'zh-TW' : 'zh-CN';
  }
  var hash = location.hash;
  var hashQuery = hash.indexOf('?') < 0 ? '' : hash.slice(hash.indexOf('?') + 1);
  var chosen =
    language(new URLSearchParams(hashQuery).get('lang')) ||
    language(new URLSearchParams(location.search).get('lang')) ||
    language(read('chat-site.language'));
  var browser = navigator.languages || [];
  for (var index = 0; !chosen && index < browser.length; index += 1) chosen = language(browser[index]);
  if (chosen && chosen !== 'zh-CN') root.classList.add('prerender-off');
  // The route as src/boot-route.js and the router read it: the hash's path, '/' when empty.
  if ((hash.replace(/^#/, '').split('?')[0] || '/') !== '/') root.classList.add('off-landing');
})();
