// The Customize tab's live preview: each change (debounced) posts the unsaved form to the preview frame, exactly as
// the form's own Preview button does without JavaScript (formaction + formtarget), so nothing is saved.
import { livePreview } from './live-preview.js';

const form = document.getElementById('customize-form');
const previewButton = form && form.querySelector('button[formtarget="widget-preview"]');
if (form && previewButton) {
  const refresh = livePreview(form, previewButton, 300);
  form.addEventListener('input', refresh);
  form.addEventListener('change', refresh);
}
