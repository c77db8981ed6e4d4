/**
 * The lander's stylesheet, served from the sandbox itself (`{mount}/lander.css`) so the page needs no inline style
 * or script and its Content-Security-Policy can be strict.
 */
export const LANDER_CSS = `
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #d9dee7; --accent: #2454d6; --bad: #b42318; --good: #067647; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f4f6fa; }
main { max-width: 30rem; margin: 3rem auto; padding: 2rem; background: #fff; border: 1px solid var(--line); border-radius: 12px; }
.brand { display: flex; justify-content: space-between; align-items: center; color: var(--muted); font-size: .875rem; margin-bottom: 1.5rem; }
.badge { background: #fff4e5; color: #8a4b00; border-radius: 999px; padding: .125rem .625rem; font-weight: 600; }
.eyebrow { margin: 0; color: var(--muted); font-size: .875rem; }
h1 { margin: .25rem 0; font-size: 1.75rem; word-break: break-all; }
.price { margin: 0 0 1.5rem; font-size: 1.25rem; font-weight: 600; }
form { display: grid; gap: .75rem; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
label { display: grid; gap: .25rem; font-size: .875rem; color: var(--muted); }
input { font: inherit; padding: .625rem .75rem; border: 1px solid var(--line); border-radius: 8px; color: var(--ink); }
input:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
button { font: inherit; font-weight: 600; padding: .75rem; border: 0; border-radius: 8px; background: var(--accent); color: #fff; cursor: pointer; }
button:hover { filter: brightness(1.08); }
.alert { border-radius: 8px; padding: .75rem 1rem; margin: 0 0 1rem; }
.alert.bad { background: #fef3f2; color: var(--bad); border: 1px solid #fecdca; }
.alert.good { background: #ecfdf3; color: var(--good); border: 1px solid #abefc6; }
.alert ul { margin: 0; padding-left: 1.25rem; }
.hint { color: var(--muted); font-size: .875rem; margin-top: 1.25rem; }
.hint code { background: #f4f6fa; padding: 0 .25rem; border-radius: 4px; }
a { color: var(--accent); }
`.trimStart();
