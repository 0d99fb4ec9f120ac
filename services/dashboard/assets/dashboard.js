/* global document, navigator, setTimeout */
// Progressive enhancement only: every page works without this file. It reveals the copy buttons
// (hidden without script) and copies the text of the element a button names in data-copy.
document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const target = document.getElementById(button.dataset.copy);
    if (!target || !navigator.clipboard) continue;
    const label = button.textContent;
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(target.textContent.trim());
        button.textContent = 'Copied';
      } catch {
        button.textContent = 'Copy failed: select the text instead';
      }
      setTimeout(() => {
        button.textContent = label;
      }, 2000);
    });
  }
});
