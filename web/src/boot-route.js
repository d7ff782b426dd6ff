/* global document, location, window, requestAnimationFrame, addEventListener, matchMedia */
// Runs at the end of <body>, before the first paint: the build writes it inline there
// (vite.config.ts, inlineHead), and the server's CSP allows it by its hash.
// 1. Puts the current route's prerendered first frame on screen: the landing page is already in
//    #root; another route's is in a <template data-route>. A route with none (an announcement's
//    own address, an unknown one) gets an empty page until the site's script renders it.
// 2. Starts the site's script (the build lists it in <meta name="entry-scripts">, the entry
//    first) once that frame is on screen, so none of it is fetched or run before that paint: on
//    the landing page after the load event (its pictures are in) and its first paint; on another
//    prerendered route after its first paint (where a list is drawn first, 4. below, once that
//    list is drawn); with nothing to show, at once.
(function () {
  var root = document.documentElement;
  var app = document.getElementById('root');
  var path = location.hash.replace(/^#/, '').split('?')[0] || '/';
  // On the primary domain (the server marks the root), a screen's frame for that domain if it
  // has one.
  var frames = 'template[data-route="' + path + '"]';
  var frame =
    path === '/'
      ? null
      : (root.classList.contains('primary-host') && document.querySelector(frames + '[data-host="primary"]')) ||
        document.querySelector(frames + ':not([data-host])');
  var shown = !root.classList.contains('prerender-off') && (path === '/' || frame !== null);
  if (shown && frame) app.replaceChildren(frame.content.cloneNode(true));
  if (!shown) root.classList.add('prerender-off');
  // On a phone the announcements list is drawn from the early answer (4. below), from two sample
  // rows the build put beside the screen's frame; a wider screen waits for the script.
  var rows =
    shown && path === '/announcements' && !matchMedia('(min-width: 768px)').matches
      ? app.querySelector('template[data-early-list]')
      : null;

  var started = false;
  function start() {
    var list = document.querySelector('meta[name="entry-scripts"]');
    if (started || !list) return;
    started = true;
    // The entry, the modules it imports, and the code of the screen whose frame is shown.
    var urls = list.content.split(' ').concat(frame ? frame.getAttribute('data-scripts').split(' ') : []);
    for (var index = 0; index < urls.length; index += 1) {
      var tag = document.createElement(index === 0 ? 'script' : 'link');
      tag.crossOrigin = '';
      if (index === 0) {
        tag.type = 'module';
        tag.src = urls[index];
      } else {
        tag.rel = 'modulepreload';
        tag.href = urls[index];
      }
      document.head.appendChild(tag);
    }
  }
  // A link within the page (the hero's "了解功能", the skip link) scrolls there, as the script's
  // own handlers do, rather than putting its name in the address, where the router would take it
  // for a route.
  document.addEventListener('click', function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[href^="#"]') : null;
    var href = link ? link.getAttribute('href') : '';
    if (root.hasAttribute('data-running') || !href || href.charAt(1) === '/' || href.length < 2) return;
    var target = document.getElementById(href.slice(1));
    if (!target) return;
    event.preventDefault();
    // The skip link's target takes focus too; an element that cannot take it ignores this.
    target.focus({ preventScroll: true });
    target.scrollIntoView({ behavior: 'smooth' });
  });
  // A route followed before the script runs (a row of the early list, 4. below) is the script's
  // to show: it starts at once rather than after the list's paint.
  addEventListener('hashchange', function () {
    if (!root.hasAttribute('data-running')) start();
  });
  // A language chosen before the script runs is kept as the script's own switcher keeps it
  // (src/lib/i18n.ts), and the script starts at once: it then renders in that language, over a
  // `?lang=` in the address (initLanguage reads data-early-language).
  document.addEventListener('change', function (event) {
    var target = event.target;
    if (root.hasAttribute('data-running') || !target || target.tagName !== 'SELECT' || !target.closest('header')) {
      return;
    }
    root.setAttribute('data-early-language', target.value);
    try {
      localStorage.setItem('chat-site.language', target.value);
    } catch {
      // Storage refused: the choice lasts until the script renders.
    }
    root.classList.add('prerender-off');
    start();
  });
  // 3. Asks the API now, while the script loads, the calls its first screen starts with (as
  //    src/features/api-bootstrap/init-api.ts makes them): the ping of the address it will try
  //    first; when that is one address and it answers 200, the app config and the screen's data
  //    together. The script asks the data only once it has the config, which it needs to show
  //    the data, not to ask for it: each is a round trip, over half a second on a slow phone
  //    network. It stops as soon as the script runs, which then asks for itself.
  //    src/lib/http.ts takes an answer from here when it makes the same call.
  var early = {};
  // Settles once the list is drawn, or will not be.
  var listed = null;
  function ask(url, cache) {
    if (root.hasAttribute('data-running')) return null;
    var controller = new AbortController();
    var answer = fetch(url, { headers: { os: 'WEB' }, cache: cache, signal: controller.signal });
    // A failure is the script's to see, when it takes the answer; until then it is no error.
    answer.catch(function () {});
    early[url] = { answer: answer, controller: controller };
    return answer;
  }
  function stored(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  }
  try {
    var config = JSON.parse(document.querySelector('meta[name="site-config"]').content);
    var last = stored('chat-site.last-api-addr');
    var known = JSON.parse(stored('chat-site.api-addrs') || '[]').concat(
      config.apiAddrs.length > 0 ? config.apiAddrs : [location.origin],
    );
    var addrs = last
      ? [last]
      : known.map(function (addr) {
          return addr.replace(/\/+$/, '');
        });
    addrs = addrs.filter(function (addr, index) {
      return addrs.indexOf(addr) === index;
    });
    var data = {
      '/announcements': 'bulletin/page?page_index=1&page_size=100',
      '/download': 'common/getInstallPackageAddrs',
      '/downloadHelp': 'common/getInstallPackageAddrs',
    }[path];
    // The landing page is whole without the API: its first paint does not share the network.
    if (path === '/') addrs = [];
    window.__earlyAnswers = { at: Date.now(), answers: early };
    for (var each = 0; each < addrs.length; each += 1) {
      var base = addrs[each] + '/v1/';
      var ping = ask(base + 'ping', 'no-store');
      if (addrs.length > 1 || !ping) continue;
      var answered = ping.then(function (response) {
        if (response.status !== 200) return null;
        ask(base + 'common/appconfig', 'no-cache');
        return data ? ask(base + data, 'no-cache') : null;
      });
      answered.catch(function () {});
      if (rows) listed = answered.then(drawList).catch(function () {});
      window.__earlyAnswers.data = answered;
    }
    // The download screen's cards are drawn by a script of their own (src/early-download.ts),
    // which says when it is done.
    var cards = frame && frame.getAttribute('data-early-script');
    if (cards) {
      var drawer = document.createElement('script');
      drawer.src = cards;
      listed = new Promise(function (resolve) {
        window.__earlyAnswers.drawn = resolve;
        drawer.onerror = resolve;
      });
      document.head.appendChild(drawer);
    }
  } catch {
    // No settings on the page (a development server), or storage in a shape the script will
    // mend: the script asks for itself.
  }

  // 4. The announcements list of the early answer, drawn from the sample rows (the first
  //    selected, pinned ones marked) in place of the loading line. Only this project's own
  //    server's form (docs/behaviour.md#the-public-api) is drawn; any other is the script's to
  //    read. The script then keeps it on screen until its own render has the list (src/main.tsx).
  //    The download screen's cards are drawn the same way by src/early-download.ts, loaded
  //    in 3. above.
  function drawList(response) {
    if (!response || !response.ok) return null;
    return response
      .clone()
      .json()
      .then(function (body) {
        var items = body && body.list;
        var loading = app.querySelector('[data-loading]');
        if (root.hasAttribute('data-running') || !loading || !Array.isArray(items) || items.length === 0) return;
        var view = rows.content.cloneNode(true);
        var samples = view.querySelectorAll('li');
        var made = [];
        for (var index = 0; index < items.length; index += 1) {
          var item = items[index] || {};
          var wellFormed =
            typeof item.title === 'string' &&
            /^[1-9][0-9]*$/.test(String(item.id)) &&
            (item.topup === 0 || item.topup === 1) &&
            /^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$/.test(item.created_at);
          if (!wellFormed) return;
          var row = samples[index === 0 ? 0 : 1].cloneNode(true);
          var mark = row.querySelector('[data-field="pinned"]');
          var title = row.querySelector('[data-field="title"]');
          if (item.topup === 1 && !mark)
            title.before(samples[0].querySelector('[data-field="pinned"]').cloneNode(true));
          if (item.topup === 0 && mark) mark.remove();
          title.textContent = item.title;
          row.querySelector('[data-field="date"]').textContent = item.created_at.slice(0, 10);
          row.querySelector('a').setAttribute('href', '#/announcement/' + item.id);
          made.push(row);
        }
        made[0].querySelector('[data-field="title"]').setAttribute('elementtiming', 'early-list');
        samples[0].parentNode.replaceChildren.apply(samples[0].parentNode, made);
        loading.replaceWith(view);
        root.setAttribute('data-early-list', path);
      });
  }

  // With a list to draw, the script is fetched and run once the list is on screen (or will not
  // be), 3 s after the paint at the latest. The list needs only its own answer, a few KB: on a
  // slow link it would otherwise share the bandwidth with the script, ten times its size, and
  // a script run before the list's paint would hold that paint up.
  function go() {
    if (!listed) return start();
    listed.then(function () {
      if (!app.querySelector('[elementtiming="early-list"]')) return start();
      // Once the browser has shown the first title (Element Timing).
      whenPainted('element', 'text-paint', start);
    });
    setTimeout(start, 3000);
  }

  // Calls `then` once the browser reports the paint named `name` (of the entry type `type`);
  // where it does not report such paints, after the next frame.
  function whenPainted(type, name, then) {
    var types = window.PerformanceObserver ? PerformanceObserver.supportedEntryTypes || [] : [];
    if (types.indexOf(type) < 0) {
      return requestAnimationFrame(function () {
        setTimeout(then, 0);
      });
    }
    new PerformanceObserver(function (list, observer) {
      if (list.getEntriesByName(name).length === 0) return;
      observer.disconnect();
      setTimeout(then, 0);
    }).observe({ type: type, buffered: true });
  }

  // After the first contentful paint. A hidden tab paints nothing: it starts at once.
  function afterPaint() {
    if (document.visibilityState === 'hidden') return start();
    whenPainted('paint', 'first-contentful-paint', go);
  }
  if (!shown) start();
  else if (frame || document.readyState === 'complete') afterPaint();
  else addEventListener('load', afterPaint);
})();
