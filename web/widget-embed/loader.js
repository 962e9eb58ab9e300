// The widget's loader, run on the host's page (plain ES5, served by GET /embed/widget/{vanity_id} and
// /embed/ecard/{ecard_vanity_id} with CARDSVC_EMBED replaced by this widget's settings, written per request).
// It puts the widget's page in an iframe inside the anchor `<div id="{anchor}">`, says hello to it when it
// loads (the frame learns the host's origin from that message), and listens only to messages that come from
// the service's origin AND from its own iframe's window: the height to give the frame, the widget's events
// (dispatched on the host's document with the names the old embed used), and a redirect of the host page.
/* global CARDSVC_EMBED, CustomEvent */
(function (embed) {
  'use strict';
  var NS = 'cardsvc';
  // One instance per anchor: the same script twice on a page (or the same widget embedded twice) runs once.
  var started = (window.__cardsvcEmbeds = window.__cardsvcEmbeds || {});
  if (started[embed.anchor]) return;
  started[embed.anchor] = true;

  var MIN_HEIGHT = 50;
  var MAX_HEIGHT = 20000;
  var loadedOnce = false;

  // Events on the host's document, with the names and details page scripts of the old embed listen for.
  function fire(name, detail) {
    var event;
    if (typeof window.CustomEvent === 'function') {
      event = new CustomEvent(name, { detail: detail });
    } else {
      event = document.createEvent('CustomEvent');
      event.initCustomEvent(name, false, false, detail);
    }
    document.dispatchEvent(event);
  }

  function onWidgetEvent(type, data) {
    data = data && typeof data === 'object' ? data : {};
    if (type === 'loaded') {
      // The widget loaded once; its later pages (the form, the thank-you) are not a new widget.
      if (loadedOnce) return;
      loadedOnce = true;
      fire('ecwWidgetLoaded', { widgetid: embed.vanity });
      fire('ecwWidgetLoaded_' + embed.vanity, { widgetid: embed.vanity });
    } else if (type === 'open-form') {
      fire('ecwOpenEcardForm', { vanity_id: embed.vanity, ecard: data.ecard });
    } else if (type === 'share-success') {
      fire('ecwShareSuccess', { vanity_id: embed.vanity, share_mode: data.share_mode, form_data: data.form_data, ecard: data.ecard });
    }
  }

  // Only absolute http(s) addresses move the host page (never javascript:, data: or the like).
  function redirect(url) {
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return;
    var link = document.createElement('a');
    link.href = url;
    if (link.protocol === 'https:' || link.protocol === 'http:') window.location.assign(link.href);
  }

  function start(anchor) {
    var frame = document.createElement('iframe');
    frame.src = embed.src;
    frame.title = anchor.getAttribute('data-title') || embed.title;
    frame.setAttribute('loading', 'lazy');
    frame.setAttribute('allow', 'clipboard-write');
    // Forms, scripts, its own origin (its API), share pop-ups, downloads and print work; what the frame cannot do
    // is move the host page itself: that goes through the `redirect` message, checked above.
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads allow-modals');
    frame.style.width = '100%';
    frame.style.border = '0';
    frame.style.display = 'block';
    frame.style.height = '400px';
    frame.style.colorScheme = 'normal';

    // On every page the frame loads (the gallery, then the form, then the thank-you page).
    frame.addEventListener('load', function () {
      if (frame.contentWindow) frame.contentWindow.postMessage({ ns: NS, v: 1, vanity: embed.vanity, type: 'hello', data: {} }, embed.origin);
    });

    window.addEventListener('message', function (event) {
      if (event.origin !== embed.origin || !frame.contentWindow || event.source !== frame.contentWindow) return;
      var message = event.data;
      if (!message || typeof message !== 'object' || message.ns !== NS || message.v !== 1 || message.vanity !== embed.vanity) return;
      var data = message.data && typeof message.data === 'object' ? message.data : {};
      if (message.type === 'resize') {
        var height = Number(data.height);
        if (!isFinite(height)) return;
        frame.style.height = Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(height))) + 'px';
      } else if (message.type === 'event') {
        onWidgetEvent(data.type, data.data);
      } else if (message.type === 'redirect') {
        redirect(data.url);
      }
    });

    anchor.appendChild(frame);
  }

  function find() {
    var anchor = document.getElementById(embed.anchor);
    if (anchor) {
      start(anchor);
      return true;
    }
    return false;
  }

  // The script is async: the anchor may come later in the page than the script tag.
  if (!find()) {
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', function () {
        if (!find()) started[embed.anchor] = false;
      });
    } else {
      started[embed.anchor] = false;
    }
  }
})(CARDSVC_EMBED);
