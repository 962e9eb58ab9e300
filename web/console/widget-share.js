// The Preview & Share tab's Copy button: puts the embed snippet on the clipboard and says so in a status line.
// Without JavaScript the button stays hidden and the read-only snippet is selectable.
const button = document.getElementById('copy_snippet');
const status = document.getElementById('copy_status');
const snippet = button && document.getElementById(button.dataset.copy);
if (button && snippet && status) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(snippet.value);
      status.textContent = 'Copied';
    } catch {
      // No clipboard access: select it, so Ctrl+C / ⌘C copies it.
      snippet.focus();
      snippet.select();
      status.textContent = 'Select and copy it with Ctrl+C (⌘C on a Mac)';
    }
    setTimeout(() => { status.textContent = ''; }, 4000);
  });
  snippet.addEventListener('focus', () => snippet.select());
}
