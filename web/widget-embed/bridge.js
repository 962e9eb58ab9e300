// The frame side of the embed (plain ES5, served as GET /embed/bridge.js and included by the widget's pages as
// `<script src="/embed/bridge.js" defer></script>` after the page's own data, see settings() below). When the page
// is framed, it waits for the loader's `hello` from the parent window, takes the host's origin from that message,
// and, if the widget allows that origin, from then on posts to that origin only: the page's height (as its content
// changes) and the page's own `cardsvc-widget` events. Events that happen before the hello wait for it. Another
// origin gets nothing. Not framed, it does nothing.
/* global ResizeObserver */
(function () {
  'use strict';
  if (window.parent === window) return;
  var NS = 'cardsvc';
  var EVENTS = { loaded: true, 'open-form': true, 'share-success': true };
  var MAX_WAITING = 20;

  // The widget's vanity and the origins that may frame it, from the page's own data (`<script type="application/json"
  // id="widget-data">` with `vanity_id` and `allowedOrigins`). Without a list, the vanity comes from the address
  // (/w/{vanity}/…) and the page's frame-ancestors policy alone has vetted the host: the browser shows the page
  // to allowed hosts only.
  function settings() {
    var result = { vanity: '', allowedOrigins: [] };
    var element = document.getElementById('widget-data');
    var data = element ? JSON.parse(element.textContent || '{}') : {};
    var match = /^\/w\/([^/]+)/.exec(window.location.pathname);
    if (typeof data.vanity_id === 'string') result.vanity = data.vanity_id;
    else if (match) result.vanity = decodeURIComponent(match[1]);
    var origins = Array.isArray(data.allowedOrigins) ? data.allowedOrigins : [];
    for (var i = 0; i < origins.length; i++) {
      if (typeof origins[i] === 'string' && origins[i]) result.allowedOrigins.push(origins[i].replace(/\/$/, ''));
    }
    return result;
  }

  var widget = settings();
  var host = null;
  var waiting = [];
  var lastHeight = -1;
  var frameRequested = false;

  // An empty list means any origin (as the page's frame-ancestors); the widget's own origin is always allowed.
  function allowed(origin) {
    if (widget.allowedOrigins.length === 0 || origin === window.location.origin) return true;
    for (var i = 0; i < widget.allowedOrigins.length; i++) if (widget.allowedOrigins[i] === origin) return true;
    return false;
  }

  function post(type, data) {
    if (host === null) {
      if (waiting.length < MAX_WAITING) waiting.push([type, data]);
      return;
    }
    window.parent.postMessage({ ns: NS, v: 1, vanity: widget.vanity, type: type, data: data }, host);
  }

  function height() {
    return Math.ceil(document.documentElement.getBoundingClientRect().height);
  }

  function sendHeight() {
    frameRequested = false;
    if (host === null) return;
    var now = height();
    if (now === lastHeight) return;
    lastHeight = now;
    post('resize', { height: now });
  }

  // One measure per frame however many changes the observer reports.
  function heightChanged() {
    if (frameRequested) return;
    frameRequested = true;
    window.requestAnimationFrame(sendHeight);
  }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent) return;
    var message = event.data;
    if (!message || typeof message !== 'object' || message.ns !== NS || message.v !== 1 || message.type !== 'hello') return;
    // The host's origin is learnt once; a page keeps the parent it was loaded in.
    if (host !== null || !allowed(event.origin)) return;
    host = event.origin;
    var queued = waiting;
    waiting = [];
    for (var i = 0; i < queued.length; i++) post(queued[i][0], queued[i][1]);
    sendHeight();
  });

  document.addEventListener('cardsvc-widget', function (event) {
    var detail = event.detail;
    if (!detail || typeof detail !== 'object') return;
    if (detail.type === 'redirect') post('redirect', { url: detail.data && detail.data.url });
    else if (EVENTS[detail.type] === true) post('event', { type: detail.type, data: detail.data || {} });
  });

  if (typeof ResizeObserver === 'function') new ResizeObserver(heightChanged).observe(document.documentElement);
  window.addEventListener('resize', heightChanged);
  window.addEventListener('load', heightChanged);
})();
