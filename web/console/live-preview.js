// A form's live preview: each change (debounced) submits the form through its Preview button (formaction +
// formtarget: the unsaved values rendered in the preview frame), as the button does by hand without JavaScript.
// A real submit (Save) cancels the pending preview and stops further ones: a form has one planned navigation, and
// a preview submitted after Save was clicked replaced the save (the brand editor lost an edit that way).
export function livePreview(form, previewButton, delayMs) {
  let timer;
  let leaving = false;
  const refresh = () => {
    clearTimeout(timer);
    if (!leaving) timer = setTimeout(() => form.requestSubmit(previewButton), delayMs);
  };
  form.addEventListener('submit', (event) => {
    if (event.submitter && event.submitter.formTarget) return;
    leaving = true;
    clearTimeout(timer);
  });
  return refresh;
}
