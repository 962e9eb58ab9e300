// The eCards list's enhancements: the bulk form shows only the value control the chosen field needs (without
// JavaScript every control shows, each labelled with the fields it is for), and a "select all" box.
const form = document.getElementById('bulk-form');
const field = document.getElementById('bulk-field');

if (form && field) {
  const show = () => {
    const kind = field.selectedOptions[0]?.dataset.kind;
    for (const box of form.querySelectorAll('.bulk-value')) {
      const on = box.dataset.kind === kind;
      box.hidden = !on;
      // One label for the value, whichever control it is.
      const label = box.querySelector('label');
      if (label) label.textContent = 'to';
    }
  };
  field.addEventListener('change', show);
  show();

  const all = document.getElementById('select-all');
  const boxes = [...form.querySelectorAll('input[name="ecardids"]')];
  if (all && boxes.length) {
    all.closest('.select-all').hidden = false;
    all.addEventListener('change', () => {
      for (const box of boxes) box.checked = all.checked;
    });
  }
}
