// The card page's behaviour (plain ES5, inlined under the page's nonce). The page works without it: the open form
// posts and comes back open. With it: the envelope opens in place, the open action goes out once by fetch, music
// starts from that gesture (never before), confetti is thrown unless the reader asked for less motion.
(function () {
  var root = document.documentElement;
  var main = document.querySelector('.envelope');
  var opened = document.querySelector('.opened');
  var card = document.querySelector('.card');
  var action = main.getAttribute('data-open-action');
  var audio = document.querySelector('.card audio');
  var toggle = document.querySelector('.audio-toggle');
  var replay = document.querySelector('.replay');
  var printButton = document.querySelector('.print');
  var lessMotion = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };
  root.classList.add('js');
  [replay, toggle, printButton].forEach(function (el) { if (el) el.hidden = false; });

  // The open action marks this recipient opened; a GET of the page never does (mail scanners fetch it too).
  function sendOpen() {
    main.setAttribute('data-open-sent', '');
    return fetch(action, { method: 'POST', credentials: 'omit', redirect: 'manual' }).catch(function () {});
  }

  function setState(name) {
    root.classList.remove('is-sealed', 'is-opening', 'is-open');
    root.classList.add(name);
  }

  var fallback = null;
  function finish() {
    clearTimeout(fallback);
    if (root.classList.contains('is-opening')) setState('is-open');
  }
  opened.addEventListener('animationend', function (event) { if (event.target === opened) finish(); });

  function throwConfetti() {
    if (main.getAttribute('data-confetti') !== 'true' || !window.confetti || lessMotion.matches) return;
    var canvas = document.createElement('canvas');
    canvas.className = 'confetti';
    canvas.setAttribute('aria-hidden', 'true');
    document.body.appendChild(canvas);
    var fire = window.confetti.create(canvas, { resize: true, useWorker: false, disableForReducedMotion: true });
    var style = getComputedStyle(root);
    var colors = ['--accent', '--liner', '--envelope', '--note-accent'].map(function (name) { return style.getPropertyValue(name).trim(); })
      .filter(function (c) { return /^#[0-9a-f]{6}$/i.test(c); }).concat(['#ffd166', '#ef476f', '#06d6a0', '#118ab2']);
    var shots = [
      fire({ particleCount: 110, spread: 80, startVelocity: 42, origin: { y: 0.45 }, colors: colors, disableForReducedMotion: true }),
      fire({ particleCount: 50, angle: 60, spread: 60, origin: { x: 0, y: 0.7 }, colors: colors, disableForReducedMotion: true }),
      fire({ particleCount: 50, angle: 120, spread: 60, origin: { x: 1, y: 0.7 }, colors: colors, disableForReducedMotion: true }),
    ];
    Promise.all(shots).then(function () { fire.reset(); canvas.remove(); });
  }

  function startAudio() {
    if (!audio) return;
    audio.loop = main.hasAttribute('data-audio-repeat');
    var playing = audio.play();
    if (playing && playing.catch) playing.catch(function () {});
  }

  // The envelope opens (again, for "Replay"): sealed for a frame, then the opening, which ends open.
  function play() {
    main.classList.remove('sealed');
    setState('is-sealed');
    void main.offsetWidth;
    setState('is-opening');
    card.setAttribute('tabindex', '-1');
    card.focus({ preventScroll: true });
    // A tab in the background runs no animation: the page still ends open.
    fallback = setTimeout(finish, 2500);
    setTimeout(throwConfetti, lessMotion.matches ? 0 : 450);
    startAudio();
  }

  var form = document.querySelector('.open-form');
  if (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (root.classList.contains('is-opening')) return;
      if (action && !main.hasAttribute('data-open-sent') && root.classList.contains('is-sealed')) sendOpen();
      play();
    });
  }
  if (replay) replay.addEventListener('click', play);

  if (audio && toggle) {
    var label = function () { toggle.textContent = toggle.getAttribute(audio.paused ? 'data-play' : 'data-pause'); };
    ['play', 'pause', 'ended'].forEach(function (name) { audio.addEventListener(name, label); });
    toggle.addEventListener('click', function () {
      if (audio.paused) startAudio();
      else audio.pause();
    });
  }

  if (printButton) printButton.addEventListener('click', function () { window.print(); });

  var copy = document.querySelector('.share-copy');
  if (copy && navigator.clipboard) {
    copy.addEventListener('click', function (event) {
      event.preventDefault();
      navigator.clipboard.writeText(copy.href).then(function () {
        document.querySelector('.copied').textContent = copy.getAttribute('data-copied');
      }, function () {});
    });
  }

  // Shown open at once (classic mode, auto-open): opened once it has been visible for 2 s in a visible tab.
  if (action && main.hasAttribute('data-open-when-seen')) {
    var timer = null;
    var watch = function () {
      clearTimeout(timer);
      if (document.visibilityState === 'visible' && !main.hasAttribute('data-open-sent')) timer = setTimeout(sendOpen, 2000);
    };
    document.addEventListener('visibilitychange', watch);
    watch();
  }
})();
