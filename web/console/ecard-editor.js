// The eCard editor's enhancements: the body in Trix (with an HTML source view and a warning when Trix would drop
// formatting), the merge-tag picker, the cover's drop zone, colour pickers, schedule presets and live previews.
// Without this script the form still works: the body is a plain textarea, and Preview buttons fill the frames.
import { enhanceCover } from './ecard-cover.js';
import { enhanceBody } from './ecard-body.js';
import { enhanceMergeTags } from './ecard-merge-tags.js';
import { enhancePreviews } from './ecard-previews.js';

const form = document.getElementById('ecard-form');
if (form) {
  // Trix defines its elements a moment after it loads (a timeout of its own); without it (not loaded) the body stays
  // a textarea.
  await Promise.race([customElements.whenDefined('trix-editor'), new Promise((resolve) => setTimeout(resolve, 3000))]);
  const body = enhanceBody();
  enhanceMergeTags(form, body);
  enhanceCover();
  enhanceColors(form);
  enhancePresets(form);
  enhancePreviews(form);
}

/** Each colour's picker beside its text field (kept in step both ways) and a button back to the theme's colour. */
function enhanceColors(form) {
  for (const picker of form.querySelectorAll('.color-picker')) {
    const text = document.getElementById(picker.dataset.for);
    picker.hidden = false;
    picker.addEventListener('input', () => {
      text.value = picker.value;
      text.dispatchEvent(new Event('input', { bubbles: true }));
    });
    text.addEventListener('input', () => {
      if (/^#[0-9a-f]{6}$/i.test(text.value)) picker.value = text.value.toLowerCase();
    });
  }
  for (const clear of form.querySelectorAll('.color-clear')) {
    const text = document.getElementById(clear.dataset.for);
    clear.hidden = false;
    clear.addEventListener('click', () => {
      text.value = '';
      text.dispatchEvent(new Event('input', { bubbles: true }));
    });
  }
}

/** `2026-12-01T09:00` of a Date, in UTC (the datetime-local fields are read as UTC). */
const localUtc = (date) => date.toISOString().slice(0, 16);

/** The schedule's preset buttons: tomorrow, next Monday, the 1st of next month, each at 9:00 UTC; or clear. */
function enhancePresets(form) {
  const bar = form.querySelector('.presets');
  const field = document.getElementById('predefinedSchedule');
  if (!bar || !field) return;
  bar.hidden = false;
  bar.addEventListener('click', (event) => {
    const button = event.target.closest('[data-preset]');
    if (!button) return;
    const now = new Date();
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 9, 0));
    if (button.dataset.preset === 'tomorrow') day.setUTCDate(day.getUTCDate() + 1);
    if (button.dataset.preset === 'monday') day.setUTCDate(day.getUTCDate() + (((8 - day.getUTCDay()) % 7) || 7));
    if (button.dataset.preset === 'month') day.setUTCMonth(day.getUTCMonth() + 1, 1);
    field.value = button.dataset.preset === 'clear' ? '' : localUtc(day);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
