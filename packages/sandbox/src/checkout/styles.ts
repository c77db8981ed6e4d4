/**
 * The lander's stylesheet, served from the sandbox itself (`{mount}/lander.css`) so the page needs no inline style
 * or script and its Content-Security-Policy can be strict.
 */
export const LANDER_CSS = `
:root { color-scheme: light dark; --ink: #1d2330; --muted: #5b6475; --line: #d9dee7; --accent: #2454d6; --on-accent: #fff; --bad: #b42318; --good: #067647;
  --page: #f4f6fa; --card: #fff; --field: #fff; --badge: #fff4e5; --badge-ink: #8a4b00; --bad-bg: #fef3f2; --bad-line: #fecdca; --good-bg: #ecfdf3; --good-line: #abefc6; }
@media (prefers-color-scheme: dark) {
  :root { --ink: #e6e9ef; --muted: #a3adbb; --line: #3d4653; --accent: #7aa2ff; --on-accent: #0d1117; --bad: #ffa198; --good: #6fdd9b;
    --page: #0d1117; --card: #161b22; --field: #0d1117; --badge: #3a2a10; --badge-ink: #ffd27a; --bad-bg: #3a1d1d; --bad-line: #7a2e2a; --good-bg: #10301f; --good-line: #2f6b47; }
}
* { box-sizing: border-box; }
/* From 320 px up: nothing is wider than the screen (no sideways scroll on a phone). */
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--page); overflow-wrap: anywhere; }
main { max-width: 30rem; margin: clamp(0rem, 4vw, 3rem) auto; padding: clamp(1rem, 5vw, 2rem); background: var(--card); border: 1px solid var(--line); border-radius: 12px; }
.brand { display: flex; flex-wrap: wrap; gap: .5rem; justify-content: space-between; align-items: center; color: var(--muted); font-size: .875rem; margin-bottom: 1.5rem; }
.badge { background: var(--badge); color: var(--badge-ink); border-radius: 999px; padding: .125rem .625rem; font-weight: 600; }
.eyebrow { margin: 0; color: var(--muted); font-size: .875rem; }
/* Headings wrap between words; a word (a long domain) breaks only when it cannot fit a line (body: overflow-wrap). */
h1 { margin: .25rem 0; font-size: 1.75rem; }
.price { margin: 0 0 1.5rem; font-size: 1.25rem; font-weight: 600; }
form { display: grid; gap: .75rem; }
.row { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: .75rem; }
label { display: grid; gap: .25rem; font-size: .875rem; color: var(--muted); }
.field-hint { font-size: .8125rem; }
input { font: inherit; width: 100%; min-width: 0; padding: .625rem .75rem; border: 1px solid var(--line); border-radius: 8px; color: var(--ink); background: var(--field); }
/* Card digits read left to right on a right-to-left page too. */
#card_number, #card_expiry, #card_cvc { direction: ltr; }
[dir=rtl] #card_number, [dir=rtl] #card_expiry, [dir=rtl] #card_cvc { text-align: right; }
/* The domain reads left to right, lined up with a right-to-left page's start like the rest. */
[dir=rtl] h1[dir=ltr], [dir=rtl] p[dir=ltr] { text-align: right; }
input:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
input[aria-invalid=true] { border-color: var(--bad); border-width: 2px; }
button { font: inherit; font-weight: 600; padding: .75rem; border: 0; border-radius: 8px; background: var(--accent); color: var(--on-accent); cursor: pointer; }
button:hover { filter: brightness(1.08); }
button.secondary { background: transparent; color: var(--accent); border: 1px solid var(--accent); padding: .5rem .75rem; }
button:focus-visible, a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
[hidden] { display: none !important; }
.alert { border-radius: 8px; padding: .75rem 1rem; margin: 0 0 1rem; }
.alert.bad { background: var(--bad-bg); color: var(--bad); border: 1px solid var(--bad-line); }
.alert.good { background: var(--good-bg); color: var(--good); border: 1px solid var(--good-line); }
.alert ul { margin: 0; padding-left: 1.25rem; }
.hint { color: var(--muted); font-size: .875rem; margin-top: 1.25rem; }
.hint code { background: var(--page); padding: 0 .25rem; border-radius: 4px; white-space: nowrap; }
a { color: var(--accent); }
`.trimStart();
