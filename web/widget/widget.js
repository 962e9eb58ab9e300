// The widget page's script (progressive enhancement: every page works without it). It opens a card's form in
// place with a fresh form token, adds recipient rows, offers schedule presets in the visitor's time, proves the
// sender's address when the widget asks for it, sends JSON to the widget API, shows the thanks in place, and tells
// the embedding page what happened through `cardsvc-widget` events (the bridge, /embed/bridge.js, relays them).
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('widget-data').textContent);
  var T = D.texts;
  var API = '/v2/widget/' + encodeURIComponent(D.vanity_id);
  var token = D.form_token;
  // When this page got the current token: no sooner than the server issued it (see holdUntilMinimumFill).
  var tokenAt = Date.now();
  var session = null;
  var sessionEmail = null;
  var framed = (function () { try { return window.top !== window; } catch { return true; } })();
  var $ = function (root, sel) { return root.querySelector(sel); };
  var $$ = function (root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); };

  function emit(type, data) {
    document.dispatchEvent(new window.CustomEvent('cardsvc-widget', { detail: { type: type, data: data || {} } }));
  }
  function eventCard(e) { return { ecardid: e.id, vanity_id: e.vanity_id, name: e.name, thumb_image: e.thumb_image }; }
  function errorText(code) { return T['widgetError_' + code] || T.widgetError; }
  function dateText(iso) {
    try { return new Intl.DateTimeFormat(D.lang, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso)); } catch { return iso; }
  }
  function fill(template, values) { return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k] == null ? '' : String(values[k]); }); }
  function localInput(date) {
    var p = function (n) { return String(n).padStart(2, '0'); };
    return date.getFullYear() + '-' + p(date.getMonth() + 1) + '-' + p(date.getDate()) + 'T' + p(date.getHours()) + ':' + p(date.getMinutes());
  }
  function request(method, path, body) {
    return fetch(path, {
      method: method,
      headers: body ? { 'Content-Type': 'application/json', Accept: 'application/json' } : { Accept: 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'omit',
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (json) { return { status: res.status, ok: res.ok, body: json }; });
    });
  }
  function showError(form, text) {
    var alert = $(form, '[data-slot="error"]');
    alert.textContent = text;
    alert.hidden = false;
    alert.scrollIntoView({ block: 'nearest' });
  }

  // Dates the server wrote in UTC, in the visitor's time.
  function localDates(root) {
    $$(root, '[data-date-iso]').forEach(function (el) {
      var iso = el.getAttribute('data-date-iso');
      el.textContent = fill(el.hasAttribute('data-forced') ? T.widgetForced : T.widgetSuggested, { date: dateText(iso) });
    });
  }

  // The card's own form rules, for the form the gallery opens from its template (and, harmlessly, the form page).
  function applyCard(form, ecard) {
    form.elements.ecard.value = ecard.vanity_id;
    var panel = form.closest('.panel');
    var img = $(panel, '[data-slot="thumb"]');
    if (img && ecard.thumb_image) { img.src = ecard.thumb_image; img.hidden = false; var blank = $(panel, '.chosen .thumb-blank'); if (blank) blank.hidden = true; }
    $(panel, '[data-slot="name"]').textContent = ecard.name;
    var message = $(form, '[data-message]');
    if (message && !ecard.personalMessageBox) { message.remove(); }
    var schedule = $(form, '[data-schedule]');
    if (!schedule) return;
    var predefined = ecard.predefinedScheduleOn && ecard.predefinedSchedule && new Date(ecard.predefinedSchedule) > new Date() ? ecard.predefinedSchedule : null;
    if (predefined && ecard.predefinedScheduleForced) {
      var hidden = document.createElement('input');
      hidden.type = 'hidden'; hidden.name = 'sendAt'; hidden.value = predefined;
      var note = document.createElement('p');
      note.className = 'note'; note.setAttribute('data-forced', ''); note.setAttribute('data-date-iso', predefined);
      schedule.replaceWith(hidden, note);
      localDates(form);
      return;
    }
    if (!ecard.canSchedule) { schedule.remove(); return; }
    var slot = $(schedule, 'label[data-predefined][hidden]');
    if (slot && predefined) {
      slot.hidden = false;
      $(slot, 'input').value = predefined;
      $(slot, '[data-predefined-text]').textContent = fill(T.widgetSuggested, { date: dateText(predefined) });
    }
  }

  function enhanceSchedule(form) {
    var schedule = $(form, '[data-schedule]');
    if (!schedule) return;
    var now = new Date();
    var max = new Date(now.getTime() + D.scheduleMaxDays * 86400000);
    var tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 9, 0);
    var week = new Date(now.getTime() + 7 * 86400000);
    [['tomorrow', tomorrow], ['week', week]].forEach(function (pair) {
      var radio = $(schedule, 'input[data-preset="' + pair[0] + '"]');
      if (!radio) return;
      if (pair[1] > max) radio.closest('label').hidden = true; else radio.value = pair[1].toISOString();
    });
    var pick = $(schedule, '[data-pick]');
    var pickAt = $(schedule, '[data-pick-at]');
    var input = $(schedule, '[data-pick-input]');
    pick.hidden = false;
    input.min = localInput(now);
    input.max = localInput(max);
    schedule.addEventListener('change', function () {
      var chosen = $(schedule, 'input[name="sendAt"]:checked');
      var picking = chosen && chosen.getAttribute('data-preset') === 'pick';
      pickAt.hidden = !picking;
      input.required = picking;
    });
  }

  function enhanceRecipients(form) {
    var box = $(form, '[data-recipients]');
    var rows = $(box, '[data-rows]');
    var add = $(box, '[data-add]');
    var max = D.maxRecipients;
    var first = $(rows, '[data-row]');
    function renumber() {
      $$(rows, '[data-row]').forEach(function (row, i) {
        $$(row, 'input').forEach(function (input) { input.name = input.name.replace(/recipients\[\d+\]/, 'recipients[' + i + ']'); });
      });
      add.hidden = $$(rows, '[data-row]').length >= max;
      // Every row keeps a remove button's column once there are several, so the fields line up.
      rows.classList.toggle('removable', $$(rows, '[data-row]').length > 1);
    }
    add.addEventListener('click', function () {
      var row = first.cloneNode(true);
      $$(row, 'input').forEach(function (input) { input.value = ''; });
      var remove = document.createElement('button');
      remove.type = 'button'; remove.className = 'ghost remove'; remove.textContent = '×';
      remove.setAttribute('aria-label', T.widgetRemoveRecipient);
      remove.addEventListener('click', function () { row.remove(); renumber(); add.focus(); });
      row.appendChild(remove);
      rows.appendChild(row);
      renumber();
      $(row, 'input').focus();
    });
    renumber();
  }

  function enhanceVerify(form) {
    var box = $(form, '[data-verify]');
    if (!box) return;
    box.hidden = false;
    var email = form.elements.sender_email;
    var code = form.elements.verify_code;
    $(box, '[data-verify-start]').addEventListener('click', function () {
      if (!email.reportValidity()) return;
      request('POST', API + '/verify/start', { form_token: token, email: email.value.trim() }).then(function (r) {
        if (!r.ok) { showError(form, errorText(r.body.code)); return; }
        $(box, '[data-verify-intro]').textContent = fill(T.widgetVerifySentTo, { email: email.value.trim() });
        $(box, '[data-verify-code]').hidden = false;
        code.focus();
      }, function () { showError(form, T.widgetError); });
    });
    $(box, '[data-verify-confirm]').addEventListener('click', function () {
      var address = email.value.trim();
      request('POST', API + '/verify/confirm', { email: address, code: code.value.trim() }).then(function (r) {
        var data = r.body && (r.body.data || r.body);
        if (!r.ok || !data.widget_session) { showError(form, errorText(r.body.code)); return; }
        session = data.widget_session;
        sessionEmail = address.toLowerCase();
        form.elements.widget_session.value = session;
        $(box, '[data-verify-code]').hidden = true;
        $(box, '[data-verify-start]').hidden = true;
        $(box, '[data-verified]').hidden = false;
        $(form, '[data-slot="error"]').hidden = true;
      }, function () { showError(form, T.widgetError); });
    });
  }

  function payloadOf(form, mode) {
    var f = form.elements;
    var recipients = $$(form, '[data-row]').map(function (row) {
      var inputs = $$(row, 'input');
      return { name: inputs[0].value.trim(), email: inputs[1].value.trim() };
    }).filter(function (r) { return r.name || r.email; });
    var sendAt = null;
    var chosen = $(form, 'input[name="sendAt"]:checked') || $(form, 'input[type="hidden"][name="sendAt"]');
    if (chosen && chosen.getAttribute('data-preset') === 'pick') sendAt = new Date($(form, '[data-pick-input]').value).toISOString();
    else if (chosen && chosen.value) sendAt = chosen.value;
    var body = {
      form_token: token,
      ecard: f.ecard.value,
      share_mode: mode,
      sender: { name: f.sender_name.value.trim(), email: f.sender_email.value.trim() },
      recipients: mode === 'email' ? recipients : [],
      getReadReceipt: Boolean(f.getReadReceipt && f.getReadReceipt.checked),
      optedIn: Boolean(f.optedIn && f.optedIn.checked),
    };
    body[form.querySelector('.hp input').name] = form.querySelector('.hp input').value;
    if (f.personalMessage && f.personalMessage.value.trim()) body.personalMessage = f.personalMessage.value;
    if (sendAt) body.sendAt = sendAt;
    if (session) body.widget_session = session;
    return body;
  }

  // A new form token (a form opened, a send answered): its age counts from now.
  function setToken(next) {
    token = next;
    tokenAt = Date.now();
  }

  // The "too fast" rule (services/widgets/public/send.ts, MIN_FILL_MS): a send sooner than that after its form token was
  // issued is a bot's, answered "Sent" and dropped. A person can be that quick (a short form, autofill), so the send
  // waits until the token is old enough (the button already says "Sending…"): only a client without JavaScript that
  // fast meets the rule. The age counts from when the page got the token, never sooner than the server issued it,
  // plus a margin for the two clocks' ticks.
  function holdUntilMinimumFill(send) {
    var wait = tokenAt + D.minFillMs + 250 - Date.now();
    if (wait > 0) setTimeout(send, wait);
    else send();
  }

  function enhanceForm(form, ecard, onSent) {
    applyCard(form, ecard);
    localDates(form);
    enhanceRecipients(form);
    enhanceSchedule(form);
    enhanceVerify(form);
    var main = $(form, '[data-main]');
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var mode = (event.submitter && event.submitter.value) || 'email';
      // A share needs no recipient, but the sender and (when the form requires one) the message are checked by the server
      // all the same: the browser says so on the field rather than the server's generic refusal.
      var message = form.elements.personalMessage;
      if (mode === 'email' ? !form.reportValidity() : !(form.elements.sender_name.reportValidity() && form.elements.sender_email.reportValidity() && (!message || message.reportValidity()))) return;
      if (D.requiresVerification && (!session || sessionEmail !== form.elements.sender_email.value.trim().toLowerCase())) {
        showError(form, T.widgetError_verification_required);
        var start = $(form, '[data-verify-start]');
        if (start && !start.hidden) start.focus();
        return;
      }
      var body = payloadOf(form, mode);
      main.disabled = true;
      main.textContent = T.widgetSending;
      holdUntilMinimumFill(function () { request('POST', API + '/send', body).then(function (r) {
        main.disabled = false;
        main.textContent = main.getAttribute('data-label');
        if (!r.ok || !r.body.success) {
          var code = r.body.code || r.body.reason;
          showError(form, errorText(code));
          if (code === 'form_expired') refreshToken(ecard);
          return;
        }
        if (r.body.form_token) setToken(r.body.form_token);
        emit('share-success', {
          vanity_id: D.vanity_id,
          share_mode: mode,
          form_data: { recipients: body.recipients, sender: body.sender, personalMessage: body.personalMessage || '', getReadReceipt: body.getReadReceipt, optedIn: body.optedIn, setSchedule: body.sendAt || null },
          ecard: eventCard(ecard),
        });
        if (ecard.url_redirect_after_send) {
          if (framed) emit('redirect', { url: ecard.url_redirect_after_send });
          else window.location.assign(ecard.url_redirect_after_send);
          return;
        }
        onSent(mode, r.body.shareUrl || null);
      }, function () {
        main.disabled = false;
        main.textContent = main.getAttribute('data-label');
        showError(form, T.widgetError);
      }); });
    });
  }

  function refreshToken(ecard) {
    return request('GET', API + '?ecard=' + encodeURIComponent(ecard.vanity_id)).then(function (r) {
      if (r.ok && r.body.data) setToken(r.body.data.form_token);
      return r;
    });
  }

  function enhanceSent(panel, mode, shareUrl) {
    var box = $(panel, '[data-share-box]');
    if (mode === 'email') $(panel, '[data-slot="sent-title"]').textContent = T.widgetSentTitle;
    if (mode && mode !== 'email' && shareUrl && /^https?:\/\//.test(shareUrl)) {
      $(panel, '[data-slot="sent-title"]').textContent = T.widgetShareTitle;
      box.hidden = false;
      $(box, '[data-share-url]').value = shareUrl;
      $(box, '[data-open]').href = shareUrl;
      var networks = { facebook: ['Facebook', 'https://www.facebook.com/sharer/sharer.php?u='], twitter: ['X', 'https://x.com/intent/post?url='], linkedin: ['LinkedIn', 'https://www.linkedin.com/sharing/share-offsite/?url='], whatsapp: ['WhatsApp', 'https://wa.me/?text='], sms: ['SMS', 'sms:?&body='] };
      var net = networks[mode];
      var link = $(box, '[data-network]');
      if (net) { link.hidden = false; link.href = net[1] + encodeURIComponent(shareUrl); link.textContent = fill(T.widgetShareOn, { network: net[0] }); } else link.hidden = true;
      $(box, '[data-open]').textContent = mode === 'ecard_download' ? T.widgetDownload : mode === 'ecard_viewprint' ? T.widgetViewPrint : T.widgetOpenCard;
    }
    var copy = $(panel, '[data-copy]');
    if (copy) copy.addEventListener('click', function () {
      var input = $(panel, '[data-share-url]');
      var done = function () { $(panel, '[data-copied]').textContent = T.widgetLinkCopied; };
      if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(done, function () { input.select(); document.execCommand('copy'); done(); });
      else { input.select(); document.execCommand('copy'); done(); }
    });
  }

  var gallery = document.getElementById('gallery');
  var panel = document.getElementById('panel');

  function showSentInPlace(mode, shareUrl, another) {
    panel.innerHTML = '';
    panel.appendChild(document.getElementById('sent-template').content.cloneNode(true));
    enhanceSent(panel, mode, shareUrl);
    if (another) $(panel, '[data-another]').addEventListener('click', function (event) { event.preventDefault(); another(); });
    $(panel, '[data-slot="sent-title"]').focus();
    window.scrollTo(0, 0);
  }

  function closePanel(focusEcard) {
    panel.hidden = true;
    panel.innerHTML = '';
    gallery.hidden = false;
    var link = focusEcard && $(gallery, 'a[data-ecard="' + window.CSS.escape(focusEcard) + '"]');
    if (link) link.focus();
  }

  function openForm(ecard) {
    panel.innerHTML = '';
    panel.appendChild(document.getElementById('form-template').content.cloneNode(true));
    var form = $(panel, 'form');
    enhanceForm(form, ecard, function (mode, shareUrl) { showSentInPlace(mode, shareUrl, function () { closePanel(ecard.vanity_id); }); });
    $(panel, '[data-back]').addEventListener('click', function (event) { event.preventDefault(); closePanel(ecard.vanity_id); });
    gallery.hidden = true;
    panel.hidden = false;
    window.scrollTo(0, 0);
    $(panel, '[data-slot="name"]').setAttribute('tabindex', '-1');
    $(panel, '[data-slot="name"]').focus();
    emit('open-form', { vanity_id: D.vanity_id, ecard: eventCard(ecard) });
  }

  if (D.page === 'gallery' && gallery) {
    gallery.addEventListener('click', function (event) {
      var link = event.target.closest('a[data-ecard]');
      if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button > 0) return;
      event.preventDefault();
      request('GET', API + '?ecard=' + encodeURIComponent(link.getAttribute('data-ecard'))).then(function (r) {
        if (!r.ok || !r.body.data || !r.body.data.chosen) { window.location.href = link.href; return; }
        setToken(r.body.data.form_token);
        openForm(r.body.data.chosen);
      }, function () { window.location.href = link.href; });
    });
  } else if (D.page === 'form' && panel) {
    var form = $(panel, 'form');
    enhanceForm(form, D.chosen, function (mode, shareUrl) { showSentInPlace(mode, shareUrl, null); });
  } else if (D.page === 'sent' && panel) {
    enhanceSent(panel, null, null);
  }

  // After the deferred bridge has run (deferred scripts run before DOMContentLoaded).
  document.addEventListener('DOMContentLoaded', function () {
    emit('loaded', {});
    if (D.page === 'form') emit('open-form', { vanity_id: D.vanity_id, ecard: eventCard(D.chosen) });
  });
})();
