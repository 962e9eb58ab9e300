// A campaign's page: while it is scheduled or sending, asks the console API for its figures every few seconds and
// updates the progress bar, the counts and the status badge in place; when it ends, reloads once so the page's
// actions match the new status. Without JavaScript the page's Refresh link does the same by hand.
const panel = document.getElementById('campaign-progress');
if (panel && panel.dataset.live === 'yes') {
  const url = panel.dataset.progressUrl;
  const every = Number(panel.dataset.refreshMs) || 3000;
  const bar = panel.querySelector('progress');
  const set = (selector, value) => {
    const el = panel.querySelector(selector);
    if (el && el.textContent !== String(value)) el.textContent = String(value);
  };
  const badge = document.querySelector('[data-status]');
  const tick = async () => {
    try {
      const res = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      if (!res.ok) throw new Error(String(res.status));
      const { data } = await res.json();
      set('[data-done]', data.done);
      set('[data-total]', data.total);
      set('[data-percent]', data.percent);
      bar.value = data.percent;
      bar.textContent = `${data.percent}%`;
      for (const [name, value] of Object.entries(data.counts)) set(`[data-count="${name}"]`, value);
      if (badge && badge.textContent !== data.status) badge.textContent = data.status;
      if (!data.live) {
        // The page again without its one-time notice (?done=…), now with the actions of the new status.
        window.location.replace(window.location.pathname);
        return;
      }
    } catch {
      // A failed poll (offline, signed out): try again at the next tick.
    }
    setTimeout(tick, every);
  };
  setTimeout(tick, every);
}
