// The cover's drop zone: an image dropped (or chosen) goes into the `ecardimg` file input and shows as a thumbnail
// drawn on a canvas (the console's CSP allows no blob: or data: images), before the form is saved. A file over the
// limit the server renders into the input (data-max-bytes) is refused here, before any upload, in the words the
// server uses for it, at the field.
const TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Shows `message` at the cover's input (as the server's field errors show), or clears it (null). */
function fieldMessage(input, message) {
  let shown = document.getElementById('ecardimg-error');
  if (message === null) {
    shown?.remove();
    input.removeAttribute('aria-invalid');
    input.setAttribute('aria-describedby', 'cover-status');
    return;
  }
  if (!shown) {
    shown = document.createElement('p');
    shown.className = 'field-error';
    shown.id = 'ecardimg-error';
    input.after(shown);
  }
  shown.textContent = message;
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', 'cover-status ecardimg-error');
}

export function enhanceCover() {
  const zone = document.getElementById('drop-zone');
  const input = document.getElementById('ecardimg');
  const canvas = document.getElementById('cover-canvas');
  const status = document.getElementById('cover-status');
  if (!zone || !input || !canvas) return;
  zone.classList.add('droppable');
  for (const type of ['dragenter', 'dragover']) {
    zone.addEventListener(type, (event) => {
      event.preventDefault();
      zone.classList.add('dragging');
    });
  }
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    const files = event.dataTransfer?.files;
    if (!files?.length) return;
    input.files = files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  input.addEventListener('change', () => show(input.files?.[0]));

  async function show(file) {
    if (!file) return;
    if (!TYPES.includes(file.type)) {
      fieldMessage(input, `Cover image must be a PNG, JPEG, GIF or WebP image (${file.name} is not).`);
      input.value = '';
      return;
    }
    const maxBytes = Number(input.dataset.maxBytes);
    if (file.size > maxBytes) {
      const size = (file.size / 1024 / 1024).toFixed(1);
      fieldMessage(input, `Cover image is larger than ${input.dataset.maxMegabytes} MB (${file.name} is ${size} MB): choose a smaller one.`);
      input.value = '';
      return;
    }
    fieldMessage(input, null);
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(canvas.width / bitmap.width, canvas.height / bitmap.height, 1);
    const context = canvas.getContext('2d');
    context.clearRect(0, 0, canvas.width, canvas.height);
    const w = bitmap.width * scale;
    const h = bitmap.height * scale;
    context.drawImage(bitmap, (canvas.width - w) / 2, (canvas.height - h) / 2, w, h);
    canvas.hidden = false;
    document.getElementById('cover-current')?.remove();
    status.textContent = `${file.name} (${Math.ceil(file.size / 1024)} KB) is the new cover: it is stored when you save.`;
  }
}
