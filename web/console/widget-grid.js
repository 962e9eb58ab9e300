// The widget's Ecards tab, enhanced: drag a card (HTML5 drag and drop) or move it with its arrow buttons or
// Alt+ArrowUp/Down, and the new order is saved at once through the order form's own route (the form still works
// without this script). Saves go one after another; a role=status line says how each went.
const list = document.querySelector('.wgrid-cards');
const orderForm = document.getElementById('order-form');
const status = document.getElementById('wgrid-status');

if (list && orderForm && status) {
  document.documentElement.classList.add('wgrid-js');
  const csrf = orderForm.querySelector('input[name="_csrf"]').value;
  const cards = () => [...list.querySelectorAll(':scope > .wcard')];
  const orderOf = () => cards().map((card) => card.dataset.ecard).join(',');
  let saved = orderOf();
  let queue = Promise.resolve();

  const say = (text, failed = false) => {
    status.textContent = text;
    status.classList.toggle('is-error', failed);
  };

  // Positions in the no-JavaScript form follow the grid, so "Save order" never undoes a drag.
  const renumber = () => cards().forEach((card, i) => {
    card.querySelector('input[name^="pos_"]').value = String(i + 1);
  });

  /** Posts the grid's order when it changed (the route answers 303; a redirect not followed is success). */
  const save = () => {
    renumber();
    const order = orderOf();
    if (order === saved) return;
    saved = order;
    say('Saving the order…');
    queue = queue.then(async () => {
      try {
        const res = await fetch(orderForm.action, {
          method: 'POST',
          headers: { 'X-CSRF-Token': csrf, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ _csrf: csrf, order }).toString(),
          redirect: 'manual',
          credentials: 'same-origin',
        });
        if (res.type === 'opaqueredirect' || res.ok) say('Order saved');
        else say(`The order was not saved (error ${res.status}): reload the page and try again.`, true);
      } catch {
        say('The order was not saved (no connection): try again.', true);
      }
    });
  };

  /** Moves a card one place earlier (-1) or later (+1), keeping the focus where it was. */
  const move = (card, step) => {
    const focused = document.activeElement;
    const sibling = step < 0 ? card.previousElementSibling : card.nextElementSibling;
    if (!sibling) return;
    list.insertBefore(card, step < 0 ? sibling : sibling.nextElementSibling);
    if (focused instanceof HTMLElement && card.contains(focused)) focused.focus();
    save();
  };

  for (const card of cards()) {
    card.draggable = true;
    const name = card.dataset.name;
    const moves = document.createElement('span');
    moves.className = 'wcard-moves';
    card.querySelector('.wcard-position').append(moves);
    for (const [step, label, glyph] of [[-1, 'earlier', '←'], [1, 'later', '→']]) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = `button-secondary wcard-move wcard-move-${label}`;
      button.textContent = glyph;
      button.setAttribute('aria-label', `Move ${name} ${label}`);
      button.title = `Move ${label} (Alt+${step < 0 ? '↑' : '↓'})`;
      button.addEventListener('click', () => move(card, step));
      moves.append(button);
    }
  }

  list.addEventListener('keydown', (event) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    const card = event.target.closest('.wcard');
    if (!card) return;
    event.preventDefault();
    move(card, event.key === 'ArrowUp' ? -1 : 1);
  });

  // A field or a button inside a card keeps its own mouse use (selecting text, clicking): the card is draggable
  // only while the pointer is pressed elsewhere on it.
  list.addEventListener('pointerdown', (event) => {
    const card = event.target.closest('.wcard');
    if (card) card.draggable = !event.target.closest('input, select, textarea, button, a, summary, label');
  });

  let dragged = null;
  list.addEventListener('dragstart', (event) => {
    dragged = event.target.closest('.wcard');
    if (!dragged) return;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', dragged.dataset.name);
    dragged.classList.add('is-dragging');
  });
  // Hovering another card moves the dragged one to its place (before it when coming from after, else after it).
  list.addEventListener('dragover', (event) => {
    if (!dragged) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const over = event.target.closest('.wcard');
    if (!over || over === dragged) return;
    const after = cards().indexOf(dragged) < cards().indexOf(over);
    list.insertBefore(dragged, after ? over.nextElementSibling : over);
  });
  list.addEventListener('drop', (event) => {
    if (dragged) event.preventDefault();
  });
  list.addEventListener('dragend', () => {
    if (!dragged) return;
    dragged.classList.remove('is-dragging');
    dragged = null;
    save();
  });

  // An artwork the browser cannot load (gone, or refused) leaves the card's initial showing, not a broken image.
  list.addEventListener('error', (event) => {
    if (event.target instanceof HTMLImageElement) event.target.hidden = true;
  }, true);
}
