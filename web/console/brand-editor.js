// The brand editor's enhancements: colour pickers beside the colour text fields (the text field is what is sent, so a
// colour can stay empty), and the email preview following the form as it is typed (the Preview button's request,
// debounced). Without JavaScript the text fields and the Preview button do the same.
import { livePreview } from './live-preview.js';

const form = document.getElementById('brand-form');
const previewButton = document.getElementById('preview-button');

if (form) {
  for (const picker of form.querySelectorAll('.colour-picker')) {
    const text = document.getElementById(picker.dataset.for);
    if (!text) continue;
    picker.hidden = false;
    picker.addEventListener('input', () => {
      text.value = picker.value;
      text.dispatchEvent(new Event('input', { bubbles: true }));
    });
    text.addEventListener('input', () => {
      const value = text.value.trim();
      if (/^#[0-9a-f]{6}$/i.test(value)) picker.value = value.toLowerCase();
      else if (/^#[0-9a-f]{3}$/i.test(value)) picker.value = `#${[...value.slice(1)].map((c) => c + c).join('')}`.toLowerCase();
    });
  }

  // The Preview button's own formaction, formtarget and urlencoded type: the unsaved brand's email in the iframe.
  const preview = livePreview(form, previewButton, 500);
  form.addEventListener('input', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type === 'file') return;
    preview();
  });
  form.addEventListener('change', (event) => {
    if (event.target instanceof HTMLSelectElement || (event.target instanceof HTMLInputElement && event.target.type === 'checkbox')) preview();
  });
  // A new brand has nothing saved to show: its preview starts from the form.
  const frame = document.querySelector('iframe[name="brand-preview"]');
  if (frame && !frame.getAttribute('src')) preview();
}
