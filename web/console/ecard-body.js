// The eCard body in Trix: the server's textarea becomes the HTML source view, Trix edits through a hidden `details`
// field; a body made elsewhere that Trix would lose formatting of (tables, styles, classes, h2-h6...) is kept as it
// is: a warning says what Trix would drop and the source view opens, so a save keeps the original.

// Elements Trix writes under another name (not a loss), and wrappers that carry nothing on their own.
const SAME = { P: 'DIV', B: 'STRONG', I: 'EM', S: 'DEL', STRIKE: 'DEL' };
const PLAIN = new Set(['DIV', 'BR', 'SPAN']);

/** The formatting a piece of HTML carries: its elements (by Trix's names) and attributes, bare wrappers aside. */
function formatting(html) {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  const found = new Set();
  for (const el of doc.body.querySelectorAll('*')) {
    const tag = SAME[el.tagName] ?? el.tagName;
    if (!PLAIN.has(tag)) found.add(`<${tag.toLowerCase()}>`);
    for (const attr of el.attributes) if (!(tag === 'A' && attr.name === 'href')) found.add(`${attr.name} attributes`);
  }
  return { found, text: doc.body.textContent.replace(/\s+/g, ' ').trim() };
}

/** What `original` carries that Trix's `serialized` version lost (empty: nothing). */
export function lostFormatting(original, serialized) {
  const before = formatting(original);
  const after = formatting(serialized);
  const lost = [...before.found].filter((item) => !after.found.has(item));
  if (!lost.length && before.text !== after.text) lost.push('some text');
  return lost;
}

/** Replaces the textarea with Trix; answers the editor element and whether the source view is open. */
export function enhanceBody() {
  const source = document.getElementById('details-source');
  if (!source || !customElements.get('trix-editor')) return { editor: null, sourceOpen: () => true, source };
  const original = source.value;
  const input = Object.assign(document.createElement('input'), { type: 'hidden', id: 'details', name: 'details', value: original });
  source.removeAttribute('name');
  source.setAttribute('aria-label', 'Body, HTML source');
  const editor = document.createElement('trix-editor');
  editor.setAttribute('input', 'details');
  editor.setAttribute('aria-labelledby', 'details-label');
  editor.setAttribute('aria-describedby', 'details-hint');
  editor.className = 'trix-content body-editor';
  const toggle = Object.assign(document.createElement('button'), { type: 'button', className: 'button-secondary source-toggle' });
  toggle.setAttribute('aria-pressed', 'false');
  const warning = Object.assign(document.createElement('div'), { className: 'warning', hidden: true });
  warning.setAttribute('role', 'alert');
  let sourceOpen = false;

  const show = (open) => {
    sourceOpen = open;
    source.hidden = !open;
    editor.hidden = open;
    if (editor.toolbarElement) editor.toolbarElement.hidden = open;
    toggle.textContent = open ? 'Back to the editor' : 'Edit the HTML source';
    toggle.setAttribute('aria-pressed', String(open));
  };
  show(false);
  // Before the editor joins the page: Trix may initialize as soon as it is connected.
  editor.addEventListener(
    'trix-initialize',
    () => {
      if (editor.toolbarElement) editor.toolbarElement.hidden = sourceOpen;
      if (original.trim() === '') return;
      // What Trix would save for this body: loaded, then serialized into the input by its own change.
      editor.editor.loadHTML(original);
      editor.editorController?.updateInputElement?.();
      const lost = lostFormatting(original, input.value);
      if (!lost.length) return;
      input.value = original;
      source.value = original;
      warning.textContent = `This body has formatting the visual editor cannot keep (${lost.join(', ')}). It is open as HTML source, so saving keeps it; switching to the editor would drop it.`;
      warning.hidden = false;
      show(true);
    },
    { once: true },
  );
  source.before(warning, input, editor);
  source.after(toggle);
  toggle.addEventListener('click', () => {
    if (sourceOpen) {
      editor.editor.loadHTML(source.value);
      show(false);
      warning.hidden = true;
      editor.focus();
    } else {
      source.value = input.value;
      show(true);
      source.focus();
    }
  });
  // In the source view the field sent is the textarea's text, as typed.
  source.addEventListener('input', () => {
    input.value = source.value;
  });
  // Bodies hold text and merge tags: files are not uploaded from here (the cover has its own field).
  editor.addEventListener('trix-file-accept', (event) => event.preventDefault());
  return { editor, sourceOpen: () => sourceOpen, source };
}
