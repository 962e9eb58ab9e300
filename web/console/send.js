// The Send page: "Add a recipient" adds a row in place (without JavaScript the "More recipient rows" button posts
// the form for more), the time zone starts as the browser's own until the owner picks one, and the schedule fields
// are marked unused unless Schedule is chosen. The answer page: the share link's Copy button.
const rows = document.getElementById('recipient-rows');
const more = document.getElementById('more-rows');
if (rows && more) {
  const max = Number(rows.dataset.max);
  more.textContent = 'Add a recipient';
  more.type = 'button';
  more.addEventListener('click', () => {
    const count = rows.children.length;
    if (count >= max) return;
    const row = rows.lastElementChild.cloneNode(true);
    const n = count + 1;
    for (const error of row.querySelectorAll('.field-error')) error.remove();
    for (const label of row.querySelectorAll('label')) {
      label.htmlFor = label.htmlFor.replace(/_\d+$/, `_${n}`);
      label.textContent = label.textContent.replace(/\d+$/, String(n));
    }
    for (const input of row.querySelectorAll('input')) {
      input.id = input.name = input.name.replace(/_\d+$/, `_${n}`);
      input.value = '';
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    }
    rows.append(row);
    row.querySelector('input').focus();
    if (n >= max) more.hidden = true;
  });
}

const zone = document.getElementById('timezone');
if (zone && zone.value === 'UTC' && !zone.hasAttribute('aria-invalid')) {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if ([...zone.options].some((o) => o.value === own)) zone.value = own;
}

const sendAt = document.getElementById('send_at');
const choices = document.querySelectorAll('input[name="delivery"]');
if (sendAt && zone && choices.length) {
  const sync = () => {
    const scheduled = document.querySelector('input[name="delivery"]:checked')?.value === 'schedule';
    sendAt.required = scheduled;
    sendAt.closest('.schedule-fields')?.classList.toggle('muted', !scheduled);
  };
  for (const choice of choices) choice.addEventListener('change', sync);
  sendAt.addEventListener('focus', () => {
    const schedule = document.querySelector('input[name="delivery"][value="schedule"]');
    if (schedule) schedule.checked = true;
    sync();
  });
  sync();
}

for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  if (!field) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = 'Copied';
    } catch {
      field.focus();
      field.select();
    }
  });
}
