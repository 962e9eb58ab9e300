// The widget's personal-message counter ("12 / 20,000" under the box), updated as the visitor types; served as
// GET /embed/message-counter.js (CSP 'self'). Without JavaScript the box's maxlength still holds the same limit.
// The gallery opens its form from a template after this script has run, so it listens on the document.
(function () {
  var numbers = new Intl.NumberFormat(document.documentElement.lang || undefined);
  function update(box) {
    var counter = box.form && box.form.querySelector('[data-message-counter]');
    if (!counter || !(box.maxLength > 0)) return;
    counter.textContent = numbers.format(box.value.length) + ' / ' + numbers.format(box.maxLength);
    counter.hidden = false;
  }
  function onBox(event) {
    var box = event.target;
    if (box.tagName === 'TEXTAREA' && box.name === 'personalMessage') update(box);
  }
  document.addEventListener('input', onBox);
  document.addEventListener('focusin', onBox);
  document.querySelectorAll('textarea[name="personalMessage"]').forEach(update);
})();
