// The cover's drop zone: an image dropped (or chosen) goes into the `ecardimg` file input and shows as a thumbnail
// drawn on a canvas (the console's CSP allows no blob: or data: images), before the form is saved.
const TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const MAX_BYTES = 5 * 1024 * 1024;

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
      status.textContent = `${file.name} is not a PNG, JPEG, GIF or WebP image.`;
      input.value = '';
      return;
    }
    if (file.size > MAX_BYTES) {
      status.textContent = `${file.name} is larger than 5 MB.`;
      input.value = '';
      return;
    }
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
