// Colour pickers beside the Customize tab's colour fields (the text field stays the value the form sends: any CSS
// colour may be typed; the picker writes hex into it). Without JavaScript only the text fields show.
const HEX = /^#[0-9a-f]{6}$/i;
for (const field of document.querySelectorAll('input[data-colour]')) {
  const picker = document.createElement('input');
  picker.type = 'color';
  picker.className = 'colour-picker';
  picker.setAttribute('aria-label', `Pick: ${field.labels && field.labels[0] ? field.labels[0].textContent : field.name}`);
  if (HEX.test(field.value.trim())) picker.value = field.value.trim();
  picker.addEventListener('input', () => {
    field.value = picker.value;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  });
  field.addEventListener('input', () => {
    if (HEX.test(field.value.trim())) picker.value = field.value.trim();
  });
  field.insertAdjacentElement('afterend', picker);
  field.parentElement.classList.add('has-picker');
}
