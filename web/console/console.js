// The console's shared enhancements, on every signed-in page.

// On a short screen the sidebar scrolls on its own (console.css, .sidebar-inner): the current section is brought
// into its view rather than left below its fold (Settings › Outbox at 900 px high).
// A section and its page are both current (Developers › Webhooks): the page, the last of them, is the one to show.
const current = [...document.querySelectorAll('.sidebar nav a[aria-current="page"]')].at(-1);
const scroller = document.querySelector('.sidebar-inner');
if (current instanceof HTMLElement && scroller instanceof HTMLElement && scroller.scrollHeight > scroller.clientHeight) {
  const bottom = current.offsetTop + current.offsetHeight;
  if (bottom > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = bottom - scroller.clientHeight + current.offsetHeight;
}
