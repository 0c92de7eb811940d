//! `matrix.html`: the matrix as one self-contained page. No network: the style, the script
//! and the report itself (the `matrix.json` value, transitions included) are inside the file,
//! and a Content-Security-Policy forbids every fetch.
//!
//! The page shows the columns and their versions, totals, what moved since the baseline, and
//! a case × column grid whose cells are coloured by status (and marked when they moved).
//! The embedded report holds each distinct outcome once (its `outcomes` table; cells name
//! them by digest), large ones elided; the page reads reports written before that too.
//! Clicking a cell opens a panel with the two outcomes (the column's and ours; on our own
//! column, the expectation and ours) and the diff. Filters: status, area (the catalogue file)
//! and "moved since the baseline"; reference columns whose every cell has the same status and
//! outcome can be collapsed into one. `matrix.html#cell=<case>|<column>` (URI-encoded) opens
//! that cell's panel, and choosing a cell updates the address to it.
//!
//! Element ids and classes the page guarantees (its test drives them): `#grid` (the table),
//! `td.cell` with `data-case`, `data-column` and a `status-<status>` class, `.filtered` on a
//! cell a filter hides, `#detail` (the panel, `hidden` until a cell is chosen) with
//! `#detail-outcome`, `#detail-ours`, `#detail-diff`, `#detail-elided` (a note when an
//! outcome shown is the elided form, `hidden` otherwise) and `#detail-attempts` (a retried
//! cell's failed attempts, `hidden` when it has none), the filters `#filter-<status>`,
//! `#filter-area`, `#filter-moved`, and `#collapse`.

use serde_json::Value;

/// The page for a report made by [`super::json::report`].
pub fn to_html(report: &Value) -> String {
    let data = serde_json::to_string(report).expect("reports always serialize");
    // Inside <script>, only `</` could end the element early; escaping `<`, `>` and `&` as
    // JSON escapes keeps the text the same JSON.
    let data = data
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    PAGE.replace("/*MATRIX_DATA*/", &data)
}

const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Codemode compatibility matrix</title>
<style>
  :root { --pass: #1a7f37; --diff: #cf222e; --expect: #bf8700; --skip: #8c959f; --error: #8250df; --flaky: #0969da; }
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1f2328; background: #fff; }
  header, section { padding: 0 16px; }
  h1 { font-size: 20px; margin: 12px 0 6px; }
  h2 { font-size: 16px; margin: 14px 0 6px; }
  table { border-collapse: collapse; }
  .columns td, .columns th { padding: 2px 10px 2px 0; text-align: left; }
  code, pre { font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; }
  #controls { display: flex; flex-wrap: wrap; gap: 14px; align-items: center; padding: 8px 16px;
    position: sticky; top: 0; background: #f6f8fa; border-bottom: 1px solid #d0d7de; z-index: 2; }
  #controls label { white-space: nowrap; }
  .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin: 0 3px 0 2px; }
  #layout { display: flex; align-items: flex-start; gap: 12px; padding: 8px 16px; }
  #grid-wrap { overflow: auto; max-height: calc(100vh - 60px); flex: 0 1 auto; }
  #grid th { position: sticky; top: 0; background: #fff; font-weight: 600; padding: 4px 6px;
    border-bottom: 1px solid #d0d7de; text-align: center; vertical-align: bottom; z-index: 1; }
  #grid th.case { text-align: left; }
  #grid th .members { display: block; font-weight: 400; font-size: 11px; color: #57606a; }
  #grid td { padding: 1px 3px; border-bottom: 1px solid #eaeef2; }
  #grid td.case-id { font-family: ui-monospace, monospace; font-size: 12px; white-space: nowrap; padding-right: 10px; }
  #grid td.case-id .area { color: #57606a; }
  td.cell { min-width: 52px; text-align: center; cursor: pointer; color: #fff; font-size: 11px; font-weight: 600;
    border: 2px solid #fff; border-radius: 4px; }
  td.cell.status-pass { background: var(--pass); }
  td.cell.status-diff { background: var(--diff); }
  td.cell.status-expect { background: var(--expect); }
  td.cell.status-skip { background: var(--skip); }
  td.cell.status-error { background: var(--error); }
  td.cell.status-flaky { background: var(--flaky); }
  td.cell.none { background: #f6f8fa; color: #8c959f; cursor: default; }
  td.cell.filtered { visibility: hidden; }
  td.cell.selected { outline: 3px solid #0969da; outline-offset: -1px; }
  td.cell .moved { display: block; font-size: 10px; font-weight: 700; color: #fff; text-transform: uppercase; }
  td.cell.stale { background-image: repeating-linear-gradient(45deg, transparent 0 4px, rgba(255,255,255,.35) 4px 6px); }
  #detail { flex: 1 1 0; min-width: 380px; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 12px;
    position: sticky; top: 60px; max-height: calc(100vh - 80px); overflow: auto; }
  #detail h2 { margin-top: 4px; word-break: break-all; }
  #detail .outcomes { display: flex; gap: 8px; }
  #detail .outcomes > div { flex: 1 1 0; min-width: 0; }
  #detail pre { background: #f6f8fa; padding: 6px; border-radius: 4px; overflow: auto; margin: 2px 0 8px; white-space: pre-wrap; word-break: break-word; }
  #detail-diff .add { color: #116329; background: #dafbe1; display: block; }
  #detail-diff .del { color: #82071e; background: #ffebe9; display: block; }
  #detail-diff .hunk { color: #57606a; display: block; }
  .badge { display: inline-block; padding: 0 6px; border-radius: 10px; color: #fff; font-size: 12px; font-weight: 600; }
  .transitions td, .transitions th { padding: 2px 10px 2px 0; text-align: left; vertical-align: top; }
  .muted { color: #57606a; }
</style>
</head>
<body>
<header>
  <h1>Codemode compatibility matrix</h1>
  <table class="columns" id="columns"></table>
  <p id="totals"></p>
</header>
<section id="since"></section>
<div id="controls">
  <span id="status-filters"></span>
  <label>area <select id="filter-area"><option value="">all</option></select></label>
  <label><input type="checkbox" id="filter-moved"> moved since the baseline only</label>
  <label><input type="checkbox" id="collapse"> collapse agreeing columns</label>
  <span id="shown" class="muted"></span>
</div>
<div id="layout">
  <div id="grid-wrap"><table id="grid"></table></div>
  <aside id="detail" hidden>
    <h2 id="detail-title"></h2>
    <p id="detail-meta" class="muted"></p>
    <p id="detail-reason"></p>
    <div class="outcomes">
      <div><strong id="detail-outcome-label"></strong><pre id="detail-outcome"></pre></div>
      <div><strong id="detail-ours-label"></strong><pre id="detail-ours"></pre></div>
    </div>
    <p id="detail-elided" class="muted" hidden></p>
    <strong>diff</strong>
    <pre id="detail-diff"></pre>
    <div id="detail-attempts" hidden><strong>failed attempts</strong></div>
  </aside>
</div>
<section>
  <h2>Normalization rules applied to both sides</h2>
  <ul id="rules"></ul>
</section>
<script id="matrix-data" type="application/json">/*MATRIX_DATA*/</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("matrix-data").textContent);
const STATUSES = ["pass", "diff", "expect", "skip", "error", "flaky"];
const OURS = "ours";
const el = (tag, props, ...children) => {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const child of children) node.append(child);
  return node;
};
const areaOf = (file) => String(file || "").split("/").pop();
const pretty = (v) => v === undefined ? "(none)" : JSON.stringify(v, null, 2);
// A cell's outcome: a digest naming an entry of DATA.outcomes, or (in a report written before
// outcomes were shared) the outcome itself.
const entryOf = (ref) => typeof ref === "string" && DATA.outcomes ? DATA.outcomes[ref] : undefined;
const outcomeOf = (ref) => {
  if (typeof ref !== "string") return ref;
  const entry = entryOf(ref);
  return entry ? entry.outcome : undefined;
};
const state = { statuses: new Set(STATUSES), area: "", moved: false, collapse: false, selected: null };

// Header: columns, totals, transitions, rules.
(function header() {
  const table = document.getElementById("columns");
  table.append(el("tr", {}, el("th", { textContent: "column" }), el("th", { textContent: "upstream / executor" }),
    el("th", { textContent: "wrangler" }), el("th", { textContent: "workerd" })));
  for (const c of DATA.columns) {
    table.append(el("tr", {}, el("td", {}, el("code", { textContent: c.name })),
      el("td", { textContent: c.upstream || c.executor || "-" }),
      el("td", { textContent: c.wrangler || "-" }), el("td", { textContent: c.workerd || "-" })));
  }
  const totals = DATA.totals || {};
  document.getElementById("totals").textContent =
    STATUSES.map((s) => (totals[s] || 0) + " " + s).join(" · ") +
    " · " + DATA.cases.length + " cases · elapsed " + ((DATA.elapsed_ms || 0) / 1000).toFixed(1) + " s";
  const since = document.getElementById("since");
  const t = DATA.transitions;
  if (!t) {
    since.append(el("p", { className: "muted", textContent: "No baseline was compared with this run." }));
  } else {
    since.append(el("h2", { textContent: "Since the baseline" }));
    const counts = Object.entries(t.counts || {}).map(([k, v]) => v + " " + k).join(" · ");
    since.append(el("p", { textContent: "against " + t.baseline + ": " + counts +
      (t.columns_not_run && t.columns_not_run.length ? " · not run: " + t.columns_not_run.join(", ") : "") }));
    for (const moved of t.columns_changed || []) since.append(el("p", { className: "muted", textContent: moved }));
    if (t.cells.length) {
      const details = el("details", {}, el("summary", { textContent: t.cells.length + " cells moved" }));
      const list = el("table", { className: "transitions" });
      list.append(el("tr", {}, el("th", { textContent: "case" }), el("th", { textContent: "column" }),
        el("th", { textContent: "transition" }), el("th", { textContent: "what moved" })));
      for (const m of t.cells) {
        list.append(el("tr", { className: "transition-" + m.kind }, el("td", {}, el("code", { textContent: m.case })),
          el("td", {}, el("code", { textContent: m.column })), el("td", {}, el("strong", { textContent: m.kind })),
          el("td", { textContent: m.about })));
      }
      details.append(list);
      since.append(details);
    }
  }
  const rules = document.getElementById("rules");
  for (const r of DATA.rules || []) rules.append(el("li", {}, el("code", { textContent: r.name }), ": " + r.about));
})();

// Filters.
(function controls() {
  const box = document.getElementById("status-filters");
  const totals = DATA.totals || {};
  for (const s of STATUSES) {
    const input = el("input", { type: "checkbox", id: "filter-" + s, checked: true });
    input.addEventListener("change", () => {
      if (input.checked) state.statuses.add(s); else state.statuses.delete(s);
      render();
    });
    const swatch = el("span", { className: "swatch" });
    swatch.style.background = "var(--" + s + ")";
    box.append(el("label", {}, input, swatch, s + " (" + (totals[s] || 0) + ") "));
  }
  const area = document.getElementById("filter-area");
  for (const a of [...new Set(DATA.cases.map((c) => areaOf(c.file)))].sort()) {
    area.append(el("option", { value: a, textContent: a }));
  }
  area.addEventListener("change", () => { state.area = area.value; render(); });
  const moved = document.getElementById("filter-moved");
  moved.disabled = !DATA.transitions;
  moved.addEventListener("change", () => { state.moved = moved.checked; render(); });
  const collapse = document.getElementById("collapse");
  collapse.addEventListener("change", () => { state.collapse = collapse.checked; render(); });
})();

// Agreeing columns: reference columns whose every cell has the same status and outcome.
function columnGroups() {
  const names = DATA.columns.map((c) => c.name);
  if (!state.collapse) return names.map((n) => [n]);
  const groups = new Map();
  for (const name of names) {
    const key = name === OURS ? "ours" : JSON.stringify(DATA.cases.map((row) => {
      const cell = row.cells[name];
      return cell ? [cell.status, cell.outcome === undefined ? null : cell.outcome] : null;
    }));
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(name);
  }
  return [...groups.values()];
}

function render() {
  const grid = document.getElementById("grid");
  grid.replaceChildren();
  const groups = columnGroups();
  const head = el("tr", {}, el("th", { className: "case", textContent: "case" }));
  for (const group of groups) {
    const th = el("th", { className: "column", title: group.join("\n") }, group[0]);
    if (group.length > 1) {
      th.classList.add("collapsed");
      th.append(el("span", { className: "members", textContent: "+ " + group.slice(1).join(", ") }));
    }
    head.append(th);
  }
  grid.append(el("thead", {}, head));
  const body = el("tbody");
  let shownRows = 0, shownCells = 0;
  for (const row of DATA.cases) {
    const area = areaOf(row.file);
    const tr = el("tr", { className: "row" });
    tr.dataset.case = row.id;
    tr.dataset.area = area;
    const idCell = el("td", { className: "case-id", title: row.file + ":" + row.line });
    idCell.append(row.id);
    tr.append(idCell);
    let visible = 0;
    for (const group of groups) {
      const name = group[0];
      const cell = row.cells[name];
      const td = el("td", { className: "cell" });
      td.dataset.case = row.id;
      td.dataset.column = name;
      if (!cell) {
        td.classList.add("none");
        td.textContent = "–";
        td.classList.add("filtered");
      } else {
        td.classList.add("status-" + cell.status);
        if (cell.stale_skip) td.classList.add("stale");
        td.title = name + ": " + cell.status + (cell.transition ? " (" + cell.transition + ")" : "");
        td.append(cell.status);
        if (cell.transition) {
          td.classList.add("moved-" + cell.transition);
          td.append(el("span", { className: "moved", textContent: cell.transition }));
        }
        const hidden = !state.statuses.has(cell.status) ||
          (state.moved && !group.some((n) => row.cells[n] && row.cells[n].transition));
        if (hidden) td.classList.add("filtered"); else visible++;
        if (state.selected && state.selected.case === row.id && group.includes(state.selected.column)) {
          td.classList.add("selected");
        }
      }
      tr.append(td);
    }
    tr.hidden = visible === 0 || (state.area !== "" && area !== state.area);
    if (!tr.hidden) { shownRows++; shownCells += visible; }
    body.append(tr);
  }
  grid.append(body);
  document.getElementById("shown").textContent = shownRows + " cases, " + shownCells + " cells shown";
}

function showDetail(caseId, column) {
  const row = DATA.cases.find((r) => r.id === caseId);
  const cell = row && row.cells[column];
  if (!cell) return;
  state.selected = { case: caseId, column };
  const group = columnGroups().find((g) => g.includes(column)) || [column];
  document.getElementById("detail-title").textContent = caseId + " on " + column;
  document.getElementById("detail-meta").textContent =
    row.file + ":" + row.line + " · " + cell.status +
    (cell.transition ? " · " + cell.transition + " since the baseline" : "") +
    (cell.elapsed_ms !== undefined ? " · " + cell.elapsed_ms.toFixed(1) + " ms" : "") +
    (group.length > 1 ? " · same on " + group.filter((n) => n !== column).join(", ") : "");
  const moved = DATA.transitions && DATA.transitions.cells.find((m) => m.case === caseId && m.column === column);
  document.getElementById("detail-reason").textContent =
    (cell.reason || "") + (moved ? (cell.reason ? " · " : "") + moved.about : "");
  let left, right, leftLabel, rightLabel;
  if (column === OURS) {
    leftLabel = "expected"; left = cell.expected;
    rightLabel = "ours"; right = cell.outcome;
  } else {
    leftLabel = column; left = cell.outcome;
    rightLabel = "ours";
    right = cell.ours !== undefined ? cell.ours
      : (row.cells[OURS] && row.cells[OURS].outcome !== undefined ? row.cells[OURS].outcome : cell.outcome);
  }
  const elided = [[leftLabel, left], [rightLabel, right]]
    .map(([label, ref]) => [label, ref, entryOf(ref)])
    .filter(([, , entry]) => entry && entry.elided)
    .map(([label, ref, entry]) => label + " (" + entry.bytes.toLocaleString("en") + " bytes whole, " + ref + ")");
  const note = document.getElementById("detail-elided");
  note.textContent = elided.length ? "Elided in the report, parts cut where marked $elided: " + elided.join("; ") +
    ". `codemode-compat eval --case " + caseId + " --full` prints the outcomes whole." : "";
  note.hidden = !elided.length;
  left = outcomeOf(left);
  right = outcomeOf(right);
  document.getElementById("detail-outcome-label").textContent = leftLabel;
  document.getElementById("detail-outcome").textContent = pretty(left);
  document.getElementById("detail-ours-label").textContent = rightLabel;
  document.getElementById("detail-ours").textContent = pretty(right);
  const diff = document.getElementById("detail-diff");
  diff.replaceChildren();
  const text = cell.diff || (cell.status === "pass" || cell.status === "flaky" ? "(no difference)" : cell.reason || "(no diff)");
  for (const line of text.replace(/\n$/, "").split("\n")) {
    const cls = line.startsWith("@@") || line.startsWith("+++ ") || line.startsWith("--- ") ? "hunk"
      : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "";
    diff.append(el("span", { className: cls, textContent: line + "\n" }));
  }
  const attempts = document.getElementById("detail-attempts");
  attempts.replaceChildren(el("strong", { textContent: "failed attempts" }));
  (cell.attempts || []).forEach((a, n) => {
    attempts.append(el("p", { className: "muted", textContent: "attempt " + (n + 1) + ": " + a.status }),
      el("pre", { className: "attempt", textContent: a.detail || "" }));
  });
  attempts.hidden = !(cell.attempts && cell.attempts.length);
  document.getElementById("detail").hidden = false;
  try {
    history.replaceState(null, "", "#cell=" + encodeURIComponent(caseId) + "|" + encodeURIComponent(column));
  } catch (_) { /* a page opened from a sandboxed viewer may not change its address */ }
  render();
}

document.getElementById("grid").addEventListener("click", (event) => {
  const td = event.target.closest("td.cell");
  if (td && !td.classList.contains("none")) showDetail(td.dataset.case, td.dataset.column);
});
render();
// A link to one cell: matrix.html#cell=<case>|<column> opens it.
(function deepLink() {
  const m = /^#cell=([^|]*)\|(.*)$/.exec(location.hash);
  if (!m) return;
  showDetail(decodeURIComponent(m[1]), decodeURIComponent(m[2]));
  const chosen = document.querySelector("td.cell.selected");
  if (chosen) chosen.scrollIntoView({ block: "center", inline: "nearest" });
})();
</script>
</body>
</html>
"##;
