// The merge-tag picker: inserts `{{tag}}` at the cursor of the field last focused (the subject, the header, or the
// body: Trix, or its HTML source when that is open).
export function enhanceMergeTags(form, body) {
  const picker = form.querySelector('.merge-picker');
  const select = document.getElementById('merge-tag');
  const insert = document.getElementById('merge-insert');
  const where = document.getElementById('merge-where');
  if (!picker || !select || !insert) return;
  picker.hidden = false;
  let target = null; // null: the body
  const name = (el) => (el ? form.querySelector(`label[for="${el.id}"]`)?.textContent.trim().toLowerCase() : 'body');
  for (const field of form.querySelectorAll('[data-merge-target]')) {
    field.addEventListener('focus', () => {
      target = field;
      where.textContent = `into the ${name(field)}`;
    });
  }
  const bodyFocused = () => {
    target = null;
    where.textContent = 'into the body';
  };
  body.editor?.addEventListener('focus', bodyFocused);
  body.source?.addEventListener('focus', bodyFocused);
  insert.addEventListener('click', () => {
    const tag = `{{${select.value}}}`;
    const field = target ?? (body.editor && !body.sourceOpen() ? null : body.source);
    if (field) {
      field.setRangeText(tag, field.selectionStart ?? field.value.length, field.selectionEnd ?? field.value.length, 'end');
      field.dispatchEvent(new Event('input', { bubbles: true }));
      field.focus();
    } else {
      body.editor.editor.insertString(tag);
      body.editor.focus();
    }
  });
}
