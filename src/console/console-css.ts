// The console's one stylesheet, served at /console/assets/console.css (the CSP allows styles from
// the service itself only, so none is inline). Plain and readable on a laptop and on a phone.
export const CONSOLE_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b5cad; --bad: #a40e26; --good: #116329; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem .75rem; padding: .5rem 1rem; font-size: .9375rem; border-bottom: 1px solid var(--line); background: #f6f8fa; }
header .brand { font-weight: 700; color: var(--ink); text-decoration: none; }
header nav ul { display: flex; flex-wrap: wrap; gap: .25rem .5rem; list-style: none; margin: 0; padding: 0; }
header nav a { color: var(--accent); text-decoration: none; padding: .125rem .25rem; border-radius: 4px; }
header nav a[aria-current="page"] { background: var(--accent); color: #fff; }
header .who { margin-left: auto; color: var(--muted); font-size: .875rem; }
header form { margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
a { color: var(--accent); }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: .9375rem; }
th, td { text-align: left; padding: .375rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f6f8fa; }
.table-scroll { overflow-x: auto; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .875rem; }
pre { white-space: pre-wrap; word-break: break-all; background: #f6f8fa; padding: .5rem; border-radius: 4px; margin: 0; }
form.action, form.stack { display: grid; gap: .375rem; max-width: 32rem; padding: .75rem; border: 1px solid var(--line); border-radius: 6px; margin: .75rem 0; }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: .5rem 0 1rem; }
form.filters label { display: grid; gap: .125rem; }
label { font-weight: 600; }
label.confirm { font-weight: 400; }
input, select, textarea, button { font: inherit; }
input[type="text"], input[type="password"], input[type="search"], select, textarea { padding: .375rem .5rem; border: 1px solid #8c959f; border-radius: 4px; width: 100%; }
textarea { min-height: 4rem; }
button { padding: .375rem .875rem; border: 1px solid var(--accent); border-radius: 4px; background: var(--accent); color: #fff; cursor: pointer; justify-self: start; }
header button { background: #fff; color: var(--accent); }
.consequence { margin: 0; }
.notice { padding: .5rem .75rem; border-left: 4px solid var(--accent); background: #ddf4ff; }
.error { padding: .5rem .75rem; border-left: 4px solid var(--bad); background: #ffebe9; }
.secret { word-break: break-all; }
details > summary { cursor: pointer; color: var(--accent); }
svg.qr { width: 14rem; height: 14rem; display: block; }
.muted { color: var(--muted); }
@media (max-width: 40rem) { body { font-size: 15px; } main { padding: .75rem; } header .who { margin-left: 0; } }
`;
