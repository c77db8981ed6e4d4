/**
 * The receipt's one script (`{mount}/receipt.js`, a file: the page's CSP allows no inline code). It returns the
 * buyer to the shop after the number of seconds the page names, WCAG 2.2.1-style: the notice is put into the page's
 * status region when the countdown starts (so screen readers announce it), and a Stay button stops it for good
 * (the status then says so, and focus moves to the return link). Without the script, the link alone is shown.
 */
export const RECEIPT_SCRIPT = `
const notice = document.querySelector('[data-testid="lander-auto-return"]');
const stay = document.getElementById('auto-return-stay');
const words = (id) => document.getElementById(id).content.cloneNode(true);
if (notice && stay) {
  const timer = setTimeout(() => location.assign(notice.dataset.href), Number(notice.dataset.seconds) * 1000);
  notice.replaceChildren(words('auto-return-started'));
  stay.hidden = false;
  stay.addEventListener('click', () => {
    clearTimeout(timer);
    notice.replaceChildren(words('auto-return-stopped'));
    stay.parentElement.remove();
    document.querySelector('[data-testid="lander-return"]').focus();
  });
}
`.trimStart();
