// The app's one stylesheet (`/app/style.css`). Its colours are custom properties: light by default, dark when
// the system asks for it (`prefers-color-scheme: dark`) unless the page fixes `data-theme="light"` on <html>,
// or when it fixes `data-theme="dark"` (the browser's choice, remembered in a cookie the server reads: see
// theme.ts). No script decides it, so a page never flashes the other scheme. The block editor's page keeps
// the light scheme (its own stylesheet has light colours only).

/** The light scheme's colours (WCAG AA against each other where text sits on them). */
export const LIGHT = `--text:#1d2330;--bg:#fff;--bar:#f7f8fa;--soft:#f4f5f7;--line:#dde1e8;--line-soft:#eef0f3;--field-line:#b8bfcc;
--link:#1f5fbf;--muted:#5b6475;--quiet:#3c4454;--button:#1f5fbf;--button-text:#fff;--danger:#a3161a;--danger-button:#a3161a;
--ok:#1a7f37;--ok-text:#135c28;--ok-bg:#e6f4ea;--merged:#6639ba;--merged-text:#4c2889;--merged-bg:#f3effa;
--warn:#8a6d00;--warn-text:#6b5500;--warn-bg:#fff7e6;--notice:#b26a00;--ins-bg:#e6f4ea;--del-bg:#fbe9e9;--shadow:rgb(0 0 0 / .2);color-scheme:light`;

/** The dark scheme's colours. */
export const DARK = `--text:#e6edf3;--bg:#0d1117;--bar:#151b23;--soft:#161b22;--line:#3d444d;--line-soft:#262c36;--field-line:#6e7681;
--link:#6cb6ff;--muted:#9aa3ad;--quiet:#c9d1d9;--button:#1f5fbf;--button-text:#fff;--danger:#ff8e86;--danger-button:#b3261e;
--ok:#3fb950;--ok-text:#7ee787;--ok-bg:#0f2a18;--merged:#a371f7;--merged-text:#d2a8ff;--merged-bg:#241a3a;
--warn:#d29922;--warn-text:#e3b341;--warn-bg:#2e2410;--notice:#d29922;--ins-bg:#12361f;--del-bg:#42171b;--shadow:rgb(0 0 0 / .6);color-scheme:dark`;

/** The block editor's page (`#editor-app`) stays light: `:has()` leaves it out of both dark rules. */
const NOT_EDITOR = ":not(:has(#editor-app))";

export const STYLESHEET = `
:root{${LIGHT}}
@media (prefers-color-scheme: dark){:root:not([data-theme=light])${NOT_EDITOR}{${DARK}}}
:root[data-theme=dark]${NOT_EDITOR}{${DARK}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--text);background:var(--bg)}
a{color:var(--link)}
.top{display:flex;flex-wrap:wrap;gap:.25rem;justify-content:space-between;align-items:center;padding:.5rem 1rem;border-bottom:1px solid var(--line);background:var(--bar)}
.brand{font-weight:700;text-decoration:none;color:var(--text)}
.frame{display:flex;max-width:1200px;margin:0 auto}
.sidebar{width:260px;flex:none;padding:1rem;border-right:1px solid var(--line-soft)}
.sidebar ul{list-style:none;padding-left:.9rem;margin:0}
.sidebar>ul{padding-left:0}
.sidebar a[aria-current]{font-weight:700}
main{flex:1;min-width:0;padding:1rem 2rem}
form.inline,form.sign-out{display:inline}
label{display:block;margin:.5rem 0 .2rem;font-weight:600}
label.inline{display:inline;font-weight:400}
fieldset{border:1px solid var(--line);margin:1rem 0;max-width:50rem}
button.danger{background:var(--danger-button);border-color:var(--danger-button)}
input[type=text],input[type=password],input[type=search],textarea{width:100%;max-width:48rem;padding:.4rem;font:inherit;border:1px solid var(--field-line);border-radius:4px}
input,textarea,select{color:var(--text);background:var(--bg)}
textarea{min-height:20rem;font-family:ui-monospace,monospace}
textarea.short{min-height:6rem}
input[type=text][readonly]{background:var(--soft)}
.txt{word-break:break-all}
td,th{overflow-wrap:anywhere}
button{font:inherit;padding:.35rem .9rem;border:1px solid var(--button);border-radius:4px;background:var(--button);color:var(--button-text);cursor:pointer}
.sign-out button,button.small{background:none;color:var(--link);border-color:var(--link)}
button.secondary{background:var(--bg);color:var(--link);border-color:var(--link)}
button.merge{background:#1a7f37;border-color:#1a7f37;color:#fff;font-weight:600;padding:.5rem 1.2rem}
section.merge{border:1px solid var(--ok);border-radius:6px;padding:0 1rem;margin:1.5rem 0}
.status{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:.8rem;font-weight:600;border:1px solid var(--muted);color:var(--quiet)}
.status-draft{border-color:var(--muted);background:var(--soft)}.status-open{border-color:var(--ok);color:var(--ok-text);background:var(--ok-bg)}
.status-merged{border-color:var(--merged);color:var(--merged-text);background:var(--merged-bg)}.status-archived{border-color:var(--warn);color:var(--warn-text);background:var(--warn-bg)}
button.small{padding:.1rem .5rem;font-size:.85rem}
select{font:inherit;padding:.3rem;max-width:100%}
.arrange li{margin:.3rem 0}
.tree-row{padding:.1rem .3rem;border:2px solid transparent;border-radius:4px}.tree-row[draggable=true]{cursor:grab}.tree-row.dragging{opacity:.5}
.tree-row[data-drop=before]{border-top-color:var(--link)}.tree-row[data-drop=after]{border-bottom-color:var(--link)}.tree-row[data-drop=inside]{border-color:var(--link);background:var(--warn-bg)}
details.rename{display:inline}details.rename[open]{display:block}details.rename>summary{display:inline;cursor:pointer;color:var(--link)}.rename-form{display:inline}
.page-change{border-top:1px solid var(--line);margin-top:1rem}
.refused{border:1px solid var(--danger);padding:0 1rem;margin:1rem 0}
.notice{border-left:4px solid var(--notice);padding:.3rem .8rem;background:var(--warn-bg)}
.error{color:var(--danger)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.meta{color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
.preview{border:1px dashed var(--field-line);padding:0 1rem;margin:1rem 0}
pre{background:var(--soft);padding:.8rem;overflow:auto}
code{background:var(--soft)}
.diff ins{display:block;background:var(--ins-bg);text-decoration:none}.diff del{display:block;background:var(--del-bg);text-decoration:none}
table{border-collapse:collapse}td,th{border:1px solid var(--line);padding:.3rem .6rem}
table{display:block;max-width:100%;overflow-x:auto}:is(td,th).align-center{text-align:center}:is(td,th).align-right{text-align:right}
.account a{margin-right:.5rem}
.bell{text-decoration:none}.bell .count{display:inline-block;min-width:1.3rem;padding:0 .35rem;border-radius:999px;background:#a3161a;color:#fff;font-size:.8rem;font-weight:700;text-align:center}
.notifications{list-style:none;padding:0}.notification{border-bottom:1px solid var(--line-soft);padding:.3rem 0}.notification.unread{border-left:4px solid var(--link);padding-left:.6rem}
.excerpt{margin:.2rem 0 .4rem;color:var(--quiet);border-left:3px solid var(--line);padding-left:.6rem;overflow-wrap:anywhere}
form.site-space-path{display:inline}input[type=text].path{width:10rem}
.theme-choice label{display:inline;font-weight:400;margin-right:1rem}
kbd{font:.8em ui-monospace,monospace;border:1px solid var(--line);border-radius:3px;padding:0 .25rem}
dialog.jump{width:min(40rem,calc(100vw - 2rem));max-height:min(32rem,calc(100vh - 4rem));padding:1rem;border:1px solid var(--line);border-radius:8px;color:var(--text);background:var(--bg);box-shadow:0 8px 30px var(--shadow)}
dialog.jump::backdrop{background:rgb(0 0 0 / .4)}
dialog.jump h2{margin:0 0 .5rem;font-size:1.1rem}
.jump-head{display:flex;justify-content:space-between;align-items:center;gap:.5rem}
.suggestions{list-style:none;margin:.3rem 0;padding:0;max-width:48rem;max-height:20rem;overflow:auto}
.suggestions li{padding:.3rem .5rem;border-radius:4px;cursor:pointer;overflow-wrap:anywhere}
.suggestions li[aria-selected=true]{background:var(--button);color:var(--button-text)}
.suggestions li[aria-selected=true] .meta{color:var(--button-text)}
.suggestions.mentions{border:1px solid var(--line);background:var(--bg);box-shadow:0 4px 12px var(--shadow)}
@media (max-width:700px){.frame{flex-direction:column}.sidebar{width:auto;border-right:0;border-bottom:1px solid var(--line-soft)}main{padding:1rem}}
`;
