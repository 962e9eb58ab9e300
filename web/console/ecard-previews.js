// Live previews: a moment after each change the form's fields (not the cover file) are posted to the card and email
// frames, as the Preview buttons do without JavaScript; the Sealed/Open switch picks the card's state.
const DELAY_MS = 700;

export function enhancePreviews(form) {
  const cardButton = document.getElementById('preview-card-button');
  const emailButton = document.getElementById('preview-email-button');
  if (!cardButton || !emailButton) return;
  const id = form.dataset.previewId;
  let state = document.querySelector('[data-state][aria-pressed="true"]')?.dataset.state ?? 'open';
  for (const button of document.querySelectorAll('[data-state]')) {
    button.addEventListener('click', () => {
      state = button.dataset.state;
      for (const other of document.querySelectorAll('[data-state]')) other.setAttribute('aria-pressed', String(other === button));
    });
  }

  /** Posts the form's text fields to one frame through a hidden form of its own (each form navigates one frame). */
  const post = (action, target) => {
    const shadow = Object.assign(document.createElement('form'), { method: 'post', action, target, hidden: true });
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string') shadow.append(Object.assign(document.createElement('input'), { type: 'hidden', name, value }));
    }
    document.body.append(shadow);
    shadow.submit();
    shadow.remove();
  };
  let timer;
  const refresh = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      post(`/v2/console/preview/ecard/${id}?state=${state}`, 'preview-card');
      post(`/v2/console/preview/email/${id}`, 'preview-email');
    }, DELAY_MS);
  };
  form.addEventListener('input', refresh);
  form.addEventListener('change', refresh);
  form.addEventListener('trix-change', refresh);
}
