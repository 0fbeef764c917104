import { fieldLabel, isValueComparison, livenessImages, livenessRows } from './console-fields';
import livenessTexts from './locales/console-liveness.en.json';
import texts from './locales/console.en.json';
import { contentSecurityPolicy, escapeHtml, pageShell } from './page';

/**
 * The reviewer console: one page, one script, one stylesheet served by the service, and pdf.js
 * (self-hosted under /console/pdfjs/) for PDF documents. Reviewers sign in with a named reviewer
 * token, kept in sessionStorage (never in a URL); the token's name is who acts. Images and PDFs are
 * fetched from their signed links (`connect-src https:`, as `img-src`), shown from `blob:` URLs.
 */
export const CONSOLE_CSP = contentSecurityPolicy("'self' https: blob: data:", "'self' https:");

const STATUS_OPTIONS = [
  ['5', 'Double Check (needs review)'],
  ['', 'Any status'],
  ['1', 'Started'],
  ['2', 'Submitted'],
  ['3', 'Approved'],
  ['4', 'Rejected'],
  ['6', 'Expired'],
  ['7', 'Canceled'],
  ['8', 'Hold'],
]
  .map(([value, label]) => `<option value="${value}">${label}</option>`)
  .join('');

/**
 * The console's page: signed out, a sign-in page of its own (what the console is, the token field,
 * where a token comes from); signed in, the review queue and the case view. Its texts are in
 * src/web/locales/console.en.json.
 */
export function consolePage(trailingSlash = false): string {
  return pageShell(
    'Review console',
    trailingSlash ? '../' : '',
    'console',
    `<div id="signin-page" class="signin-page">
  <main class="signin-panel">
    <p class="product"><span class="mark" aria-hidden="true"></span>${escapeHtml(texts['signin.product'])}</p>
    <h1 id="signin-title">${escapeHtml(texts['signin.title'])}</h1>
    <p class="lead">${escapeHtml(texts['signin.lead'])}</p>
    <form id="signin" aria-labelledby="signin-title">
      <label for="token">${escapeHtml(texts['signin.token'])}</label>
      <input id="token" type="password" autocomplete="off" required aria-describedby="token-help">
      <p id="signin-error" class="error" role="alert" hidden></p>
      <button type="submit" class="wide">${escapeHtml(texts['signin.submit'])}</button>
      <p id="token-help" class="hint">${escapeHtml(texts['signin.help'])}</p>
    </form>
    <p id="signin-note" role="status" class="status"></p>
    <p class="hint foot">${escapeHtml(texts['signin.privacy'])}</p>
  </main>
</div>
<div id="console" hidden>
<header class="bar">
  <p class="brand">Review console</p>
  <div id="who" hidden><span id="who-name"></span> <button id="signout" type="button" class="quiet">Sign out</button></div>
</header>
<main>
  <h1 id="title">Verifications to review</h1>
  <p id="status" role="status" class="status"></p>
  <p id="error" role="alert" class="error" hidden></p>
  <div id="app" hidden>
    <p id="notice" class="notice" hidden></p>
    <section id="queue" aria-labelledby="queue-title">
      <h2 id="queue-title">Needs review</h2>
      <form id="filters" class="filters" role="search">
        <div><label for="status-filter">Status</label><select id="status-filter">${STATUS_OPTIONS}</select></div>
        <div><label for="flow-filter">Flow</label><select id="flow-filter"><option value="">All flows</option></select></div>
        <div class="grow"><label for="search">Search</label><input id="search" type="search" minlength="2" maxlength="100" placeholder="Reference, id or name (starts with)"></div>
        <div><button type="submit">Search</button></div>
      </form>
      <p id="count" class="count"></p>
      <table class="list">
        <caption class="visually-hidden">Verifications, newest first</caption>
        <thead><tr><th scope="col">Created</th><th scope="col">Name</th><th scope="col">Reference</th><th scope="col">Flow</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Open</span></th></tr></thead>
        <tbody id="rows"></tbody>
      </table>
      <nav class="pager" aria-label="Pages"><button id="prev" type="button" class="quiet">Previous page</button> <span id="page"></span> <button id="next" type="button" class="quiet">Next page</button></nav>
    </section>
    <section id="case" hidden aria-labelledby="detail-status" tabindex="-1"></section>
    <aside class="shortcuts" aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <dl>
        <div><dt><kbd>J</kbd></dt><dd>Next case</dd></div>
        <div><dt><kbd>K</kbd></dt><dd>Previous case</dd></div>
        <div><dt><kbd>A</kbd></dt><dd>Approve (asks to confirm)</dd></div>
        <div><dt><kbd>R</kbd></dt><dd>Reject (asks to confirm)</dd></div>
        <div><dt><kbd>/</kbd></dt><dd>Search</dd></div>
        <div><dt><kbd>Esc</kbd></dt><dd>Back to the list</dd></div>
      </dl>
    </aside>
  </div>
  <dialog id="confirm" aria-labelledby="confirm-title" aria-describedby="confirm-text">
    <form id="confirm-form">
      <h2 id="confirm-title"></h2>
      <p id="confirm-text"></p>
      <div id="confirm-comment-box"><label for="confirm-comment">Comment (recorded in history)</label><textarea id="confirm-comment" rows="3" maxlength="2000"></textarea></div>
      <p id="confirm-error" class="error" role="alert" hidden></p>
      <div class="dialog-buttons"><button id="confirm-cancel" type="button" class="quiet">Cancel</button> <button id="confirm-ok" type="submit"></button></div>
    </form>
  </dialog>
</main>
</div>`,
  );
}

export const CONSOLE_CSS = `[hidden]{display:none!important}
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1d21;line-height:1.45}
.bar{display:flex;justify-content:space-between;align-items:center;gap:1rem;background:#1d2b4f;color:#fff;padding:.5rem 1rem}
.bar .brand{font-weight:700;margin:0}.bar button{border-color:#fff;background:transparent;color:#fff}
main{max-width:90rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.2rem 0 .8rem}h2{font-size:1.2rem;margin:.3rem 0 .6rem}h3{font-size:1.05rem;margin:.8rem 0 .4rem}
.card,section,aside{background:#fff;border:1px solid #d5d9e0;border-radius:.5rem;padding:1rem;margin-bottom:1rem}
.signin-page{min-height:100vh;display:flex;align-items:center;justify-content:center;padding:2rem 1rem;background:linear-gradient(165deg,#1d2b4f 0,#1d2b4f 42%,#f4f5f7 42%)}
.signin-panel{width:100%;max-width:30rem;margin:0;padding:2rem 2.25rem;background:#fff;border-radius:.75rem;box-shadow:0 12px 32px rgba(17,24,39,.22)}
.signin-panel h1{font-size:1.6rem;margin:.4rem 0 .5rem}
.signin-panel .lead{color:#374151;margin:0 0 1.2rem}
.signin-panel input{width:100%}
.signin-panel .foot{border-top:1px solid #e2e5ea;padding-top:.8rem;margin-bottom:0}
.product{display:flex;align-items:center;gap:.5rem;margin:0;font-weight:700;color:#1d2b4f}
.product .mark{width:1.6rem;height:1.6rem;border-radius:.4rem;background:#1d4ed8;box-shadow:inset 0 0 0 .35rem #dbe4ff}
button.wide{width:100%;margin:.8rem 0 .2rem}
label{display:block;font-weight:600;margin:.2rem 0}
input,select,textarea{font:inherit;padding:.45rem .5rem;border:1px solid #6b7280;border-radius:.3rem;background:#fff;color:#1b1d21;min-height:2.5rem;max-width:100%}
textarea{width:100%}
button{font:inherit;min-height:2.5rem;padding:.4rem .9rem;border-radius:.3rem;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}
button.quiet{background:#fff;color:#1d4ed8}button.danger{background:#a4161a;border-color:#a4161a}button.good{background:#166534;border-color:#166534}
button:disabled{background:#e5e7eb;border-color:#9ca3af;color:#4b5563;cursor:not-allowed}
button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,[tabindex]:focus-visible,a:focus-visible{outline:3px solid #0b3d91;outline-offset:2px}
.hint{color:#4b5563;font-size:.9rem}code{overflow-wrap:anywhere}
.filters{display:flex;flex-wrap:wrap;gap:.8rem;align-items:flex-end}.filters .grow{flex:1 1 16rem}.filters .grow input{width:100%}
table{width:100%;border-collapse:collapse;margin:.4rem 0;table-layout:auto}
th,td{text-align:left;padding:.45rem;border-bottom:1px solid #e2e5ea;vertical-align:top;overflow-wrap:break-word;word-break:normal;hyphens:manual}
td.result{white-space:nowrap}
thead th{background:#f0f2f5}
tr.current td{background:#eef3ff}
table.kv{max-width:48rem}table.kv th{width:40%}
.count{font-weight:600;margin:.6rem 0 0}.pager{display:flex;gap:.6rem;align-items:center}
.status{min-height:1.4em;margin:.2rem 0;color:#14532d;font-weight:600}
.error{color:#a4161a;font-weight:600}.notice{background:#fff7e0;border:1px solid #b7791f;border-radius:.4rem;padding:.6rem .8rem}
.case-head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.6rem;align-items:flex-start}
.meta{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;margin:.2rem 0;padding:0;list-style:none;color:#374151}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end;margin:.6rem 0;padding:.6rem;background:#f7f8fa;border-radius:.4rem}
.actions .sep{flex:1 1 auto}
.doc{border-top:1px solid #d5d9e0;margin-top:1rem;padding-top:.6rem}
.doc-grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1.3fr);gap:1rem}
@media (max-width:70rem){.doc-grid{grid-template-columns:minmax(0,1fr)}}
.viewer{margin:0 0 .8rem;border:1px solid #d5d9e0;border-radius:.4rem;background:#fafafa}
.viewer .tools{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center;padding:.4rem;border-bottom:1px solid #d5d9e0}
.viewer .tools button{min-width:2.75rem;padding:.3rem .5rem}
.viewer .stage{height:26rem;overflow:auto;display:flex;align-items:center;justify-content:center;background:#eceef1}
.viewer .stage img,.viewer .stage canvas{display:block;max-width:none;transform-origin:center center;transition:transform .15s}
.viewer figcaption{padding:.3rem .5rem;font-size:.9rem;color:#374151}
.passed td.result{color:#14532d}.failed td.result{color:#a4161a}.review td.result{color:#7a4a00}
tr.failed,tr.review{background:#fff8f0}
mark{background:#ffe08a;color:#1b1d21;padding:0 .1em;border-radius:.15em}
.shortcuts dl{display:flex;flex-wrap:wrap;gap:.4rem 1.4rem;margin:0}.shortcuts dl div{display:flex;gap:.4rem}.shortcuts dd{margin:0}
kbd{border:1px solid #9ca3af;border-bottom-width:2px;border-radius:.25rem;padding:0 .35rem;background:#fff;font-family:ui-monospace,monospace}
dialog{border:1px solid #6b7280;border-radius:.5rem;max-width:36rem;width:calc(100% - 2rem);padding:1rem}
dialog::backdrop{background:rgba(17,24,39,.55)}
.dialog-buttons{display:flex;justify-content:flex-end;gap:.5rem;margin-top:.8rem}
.liveness{margin-top:1rem}
.liveness-images{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.6rem}
.screening{border:2px solid #b91c1c;border-radius:.4rem;padding:.4rem .8rem;margin-bottom:.8rem}
.screening .hits{list-style:none;padding:0;margin:0}
.screening .hit{border-top:1px solid #d5d9e0;padding:.4rem 0}
.screening .hit:first-child{border-top:0}
.screening .hit-name{font-weight:600;margin:.2rem 0}
.screening .reasons{margin:.2rem 0 .4rem 1.2rem;padding:0}
.screening .is-cleared .hit-name{font-weight:400}
.screening .cleared{color:#166534;margin:.2rem 0}
.visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

export const CONSOLE_JS = `'use strict';
(function () {
  var T = ${JSON.stringify({ ...texts, ...livenessTexts })};
  var fieldLabel = (${String(fieldLabel)});
  var isValueComparison = (${String(isValueComparison)});
  var livenessImages = (${String(livenessImages)});
  var livenessRows = (${String(livenessRows)});
  function labelOf(key) { return fieldLabel(key, T); }
  var root = location.pathname.replace(/[/]console[/]?$/, '');
  var state = { page: 1, items: [], links: null, current: -1, caseData: null, summary: null, me: null, flows: null };
  var STATUS = { 1: 'Started', 2: 'Submitted', 3: 'Approved', 4: 'Rejected', 5: 'Double Check', 6: 'Expired', 7: 'Canceled', 8: 'Hold' };
  function $(id) { return document.getElementById(id); }
  function token() { return sessionStorage.getItem('idvToken'); }
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k];
      else if (attrs[k] === true) e.setAttribute(k, '');
      else if (attrs[k] !== false && attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }
  function signedIn() { return !!state.me; }
  /** A message in the one place of the view the person is on: the sign-in page or the console. */
  function say(m) { $(signedIn() ? 'status' : 'signin-note').textContent = m || ''; }
  function showError(m) {
    var e = $(signedIn() ? 'error' : 'signin-error'); e.textContent = m || ''; e.hidden = !m;
    if (!signedIn()) { if (m) $('token').setAttribute('aria-invalid', 'true'); else $('token').removeAttribute('aria-invalid'); }
  }
  var timeFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' });
  function when(ts) {
    if (!ts) return '';
    var d = new Date(String(ts).slice(0, 23) + 'Z');
    return isNaN(d.getTime()) ? String(ts) : timeFormat.format(d);
  }
  function api(method, path, body) {
    return fetch(root + path, { method: method, headers: { Authorization: 'Bearer ' + token(), 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })
      .then(function (res) {
        if (res.status === 204) return null;
        return res.json().then(function (json) {
          // Refused: back to the sign-in page, where the error is said by the token field.
          if (res.status === 401) { signOut(''); throw new Error('Your token was not accepted: check it and sign in again.'); }
          if (!res.ok) {
            var details = json.errors ? Object.keys(json.errors).map(function (k) { return k + ': ' + json.errors[k].join(', '); }).join('; ') : '';
            var error = new Error((json.message || 'Request failed') + (details ? ' (' + details + ')' : ''));
            error.status = res.status;
            throw error;
          }
          return json;
        });
      });
  }
  function canAct() { return !!(state.me && state.me.reviewer); }

  /* Sign in and out */
  function signIn() {
    return api('GET', '/api/v1/me').then(function (res) {
      state.me = res.data;
      showError('');
      $('signin-page').hidden = true; $('console').hidden = false; $('app').hidden = false; $('who').hidden = false;
      $('who-name').textContent = 'Signed in as ' + state.me.name + (state.me.reviewer ? '' : ' (read only)');
      var notice = $('notice');
      notice.hidden = state.me.reviewer;
      notice.textContent = state.me.reviewer ? '' : 'This token is not a named reviewer token: you can read cases, but approving, rejecting and changing a status need one (npm run token -- create --reviewer --name you@example.com).';
      return fillFlows().then(loadList);
    }, function (e) { showError(e.message); });
  }
  function signOut(message) {
    sessionStorage.removeItem('idvToken');
    state = { page: 1, items: [], links: null, current: -1, caseData: null, summary: null, me: null, flows: null };
    $('console').hidden = true; $('app').hidden = true; $('who').hidden = true; $('signin-page').hidden = false; $('case').hidden = true; $('queue').hidden = false;
    $('title').textContent = 'Verifications to review';
    var flows = $('flow-filter'); while (flows.options.length > 1) flows.remove(1);
    say(message === undefined ? 'Signed out.' : message);
    $('token').focus();
  }

  /* The list */
  function query() {
    var params = [];
    var status = $('status-filter').value; var search = $('search').value.trim();
    if (status) params.push('status=' + encodeURIComponent(status));
    if (search) params.push('search=' + encodeURIComponent(search));
    params.push('page=' + state.page);
    return params.join('&');
  }
  function loadList() {
    showError('');
    var flow = $('flow-filter').value;
    return api('GET', '/api/v1/' + (flow ? flow + '/' : '') + 'verifications?' + query()).then(function (res) {
      state.items = res.data; state.links = res.links;
      var status = $('status-filter').value;
      $('queue-title').textContent = status === '5' ? 'Needs review' : status ? STATUS[status] : 'All verifications';
      $('count').textContent = res.meta.total + (res.meta.total === 1 ? ' verification' : ' verifications') + (status === '5' ? ' waiting for review' : '');
      $('page').textContent = 'Page ' + res.meta.current_page + ' of ' + res.meta.last_page;
      $('prev').disabled = !res.links.prev; $('next').disabled = !res.links.next;
      renderRows();
      return res;
    }, function (e) { showError(e.message); });
  }
  function personName(v) {
    var p = v.expected_data && v.expected_data.person;
    return p ? [p.first_name, p.last_name].filter(Boolean).join(' ') : '';
  }
  function renderRows() {
    var rows = $('rows'); rows.textContent = '';
    if (state.items.length === 0) rows.appendChild(el('tr', {}, [el('td', { colspan: '6', text: 'Nothing here.' })]));
    state.items.forEach(function (v, i) {
      var open = el('button', { type: 'button', class: 'quiet', 'data-id': v.id, text: 'Open', 'aria-label': 'Open ' + (personName(v) || v.id) });
      open.addEventListener('click', function () { openCase(i); });
      rows.appendChild(el('tr', { class: i === state.current ? 'current' : '' }, [
        el('td', { text: when(v.created_at) }), el('td', { text: personName(v) }), el('td', { text: v.vendor_reference || '' }),
        el('td', { text: v.flow }), el('td', { text: v.status_label }), el('td', {}, [open])]));
    });
  }
  function fillFlows() {
    if (state.flows) return Promise.resolve(state.flows);
    return api('GET', '/api/v1/flows').then(function (r) {
      state.flows = {};
      var select = $('flow-filter');
      r.data.forEach(function (f) { state.flows[f.name] = f.path; select.appendChild(el('option', { value: f.path, text: f.name })); });
      return state.flows;
    });
  }
  function pathFor(v) { return '/api/v1/' + state.flows[v.flow] + '/verifications/' + v.id; }

  /* Moving between cases: within the page, then across pages */
  function move(step) {
    var target = state.current + step;
    if (target >= 0 && target < state.items.length) return openCase(target);
    var link = step > 0 ? state.links && state.links.next : state.links && state.links.prev;
    if (!link) { say(step > 0 ? 'This is the last case of the list.' : 'This is the first case of the list.'); return Promise.resolve(); }
    state.page += step;
    return loadList().then(function () { if (state.items.length) return openCase(step > 0 ? 0 : state.items.length - 1); });
  }
  function openCase(i) {
    showError('');
    var summary = state.items[i];
    if (!summary) return Promise.resolve();
    state.current = i; state.summary = summary;
    return api('GET', pathFor(summary)).then(function (res) {
      state.caseData = res.data;
      renderCase();
      renderRows();
      $('queue').hidden = true;
      var c = $('case'); c.hidden = false; c.focus();
      $('title').textContent = 'Case ' + (i + 1) + ' of ' + state.items.length + ' on this page';
    }, function (e) { showError(e.message); });
  }
  function backToList() {
    $('case').hidden = true; $('queue').hidden = false; $('title').textContent = 'Verifications to review';
    var b = document.querySelector('button[data-id="' + (state.summary ? state.summary.id : '') + '"]');
    if (b) b.focus();
  }

  /* Case view */
  function flatten(obj, prefix, out) {
    Object.keys(obj || {}).forEach(function (k) {
      var v = obj[k]; var key = prefix ? prefix + '.' + k : k;
      if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v, key, out); else out.push([key, v === null || v === undefined ? '' : String(v)]);
    });
    return out;
  }
  function kvTable(pairs, label) {
    return el('table', { class: 'kv' }, [el('caption', { class: 'visually-hidden', text: label }), el('tbody', {}, pairs.filter(function (p) { return p[1] !== ''; }).map(function (p) {
      return el('tr', {}, [el('th', { scope: 'row', text: labelOf(p[0]) }), el('td', { text: p[1] })]);
    }))]);
  }
  /* The differing middle of two values, marked (a common start and end stay plain). */
  function marked(value, other) {
    var a = String(value || ''); var b = String(other || '');
    if (!a || a.toLowerCase() === b.toLowerCase()) return el('span', { text: a });
    var start = 0; while (start < a.length && start < b.length && a[start].toLowerCase() === b[start].toLowerCase()) start++;
    var end = 0; while (end < a.length - start && end < b.length - start && a[a.length - 1 - end].toLowerCase() === b[b.length - 1 - end].toLowerCase()) end++;
    return el('span', {}, [a.slice(0, start), el('mark', { text: a.slice(start, a.length - end) }), a.slice(a.length - end)]);
  }
  function comparison(doc) {
    if (!doc.rules) return el('p', { class: 'hint', text: 'Not checked yet: the rules run after the verification is submitted.' });
    var head = el('thead', {}, [el('tr', {}, ['Field', 'Expected', 'Extracted', 'Result', 'Reason'].map(function (h) { return el('th', { scope: 'col', text: h }); }))]);
    var body = el('tbody', {}, doc.rules.results.map(function (r) {
      // Only two readings of one value have a differing part worth marking (not a condition's text).
      var differs = r.result !== 'passed' && isValueComparison(r.name);
      return el('tr', { class: r.result, 'data-rule': r.name }, [
        el('th', { scope: 'row', text: labelOf(r.name) }),
        el('td', {}, [differs ? marked(r.expected, r.extracted) : el('span', { text: r.expected })]),
        el('td', {}, [differs ? marked(r.extracted, r.expected) : el('span', { text: r.extracted })]),
        el('td', { class: 'result', text: r.result === 'passed' ? 'Passed' : r.result === 'failed' ? 'Failed' : r.result === 'not_evaluated' ? 'Not evaluated' : 'Needs review' }),
        el('td', { text: r.reason })]);
    }));
    return el('table', { class: 'rules' }, [el('caption', { class: 'visually-hidden', text: 'Expected and extracted, field by field' }), head, body]);
  }
  var pdfjs = null;
  function loadPdfjs() {
    if (!pdfjs) pdfjs = import(root + '/console/pdfjs/pdf.min.mjs').then(function (lib) {
      lib.GlobalWorkerOptions.workerSrc = root + '/console/pdfjs/pdf.worker.min.mjs';
      return lib;
    });
    return pdfjs;
  }
  function viewer(url, label) {
    var view = { zoom: 1, rotate: 0, page: 1, pages: 0, pdf: null, node: null };
    var stage = el('div', { class: 'stage', tabindex: '0', role: 'img', 'aria-label': label + ' (loading)' });
    var pageText = el('span', { class: 'page-text', 'aria-live': 'polite' });
    function tool(text, name, action) { var b = el('button', { type: 'button', class: 'quiet', 'aria-label': name + ': ' + label, text: text }); b.addEventListener('click', action); return b; }
    var prev = tool('Page −', 'Previous page', function () { if (view.page > 1) { view.page--; renderPage(); } });
    var next = tool('Page +', 'Next page', function () { if (view.page < view.pages) { view.page++; renderPage(); } });
    prev.hidden = true; next.hidden = true;
    var tools = el('div', { class: 'tools', role: 'toolbar', 'aria-label': label + ' view' }, [
      tool('−', 'Zoom out', function () { view.zoom = Math.max(1, view.zoom / 1.25); if (view.zoom < 1.01) view.zoom = 1; apply(); }),
      tool('+', 'Zoom in', function () { view.zoom = Math.min(6, view.zoom * 1.25); apply(); }),
      tool('Fit', 'Fit', function () { view.zoom = 1; view.rotate = 0; apply(); }),
      tool('⟳', 'Rotate', function () { view.rotate = (view.rotate + 90) % 360; apply(); }),
      prev, pageText, next]);
    function apply() {
      if (!view.node) return;
      // 1: the whole page or photo in view; above: wider than the stage, scrolled.
      var fit = view.zoom === 1; var quarter = view.rotate % 180 !== 0;
      // Turned a quarter, a square box the stage's height keeps the whole picture in view.
      view.node.style.width = fit ? (quarter ? stage.clientHeight + 'px' : '100%') : Math.round(view.zoom * 100) + '%';
      view.node.style.height = fit ? (quarter ? stage.clientHeight + 'px' : '100%') : 'auto';
      view.node.style.objectFit = fit ? 'contain' : '';
      view.node.style.transform = 'rotate(' + view.rotate + 'deg)';
      stage.setAttribute('aria-label', label + ', zoom ' + Math.round(view.zoom * 100) + '%, rotated ' + view.rotate + '°' + (view.pages ? ', page ' + view.page + ' of ' + view.pages : ''));
    }
    function show(node) { stage.textContent = ''; view.node = node; stage.appendChild(node); apply(); }
    function renderPage() {
      return view.pdf.getPage(view.page).then(function (p) {
        var vp = p.getViewport({ scale: 1.6 });
        var canvas = el('canvas', { class: 'pdf-page' }); canvas.width = Math.ceil(vp.width); canvas.height = Math.ceil(vp.height);
        return p.render({ canvasContext: canvas.getContext('2d'), viewport: vp, canvas: canvas }).promise.then(function () {
          show(canvas);
          pageText.textContent = 'Page ' + view.page + ' of ' + view.pages;
          prev.disabled = view.page <= 1; next.disabled = view.page >= view.pages;
        });
      });
    }
    fetch(url).then(function (res) {
      if (!res.ok) throw new Error('status ' + res.status);
      return res.arrayBuffer();
    }).then(function (buf) {
      var bytes = new Uint8Array(buf);
      var isPdf = bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46;
      if (!isPdf) { show(el('img', { src: URL.createObjectURL(new Blob([bytes])), alt: label })); return; }
      return loadPdfjs().then(function (lib) {
        return lib.getDocument({ data: bytes, isEvalSupported: false }).promise;
      }).then(function (pdf) {
        view.pdf = pdf; view.pages = pdf.numPages; prev.hidden = false; next.hidden = false;
        stage.setAttribute('data-pdf-pages', String(pdf.numPages));
        return renderPage();
      });
    }).catch(function () {
      stage.textContent = 'This file could not be shown (its link may have expired: reopen the case).';
    });
    return el('figure', { class: 'viewer' }, [tools, stage, el('figcaption', { text: label })]);
  }
  /* Sanctions screening: the hits of person.screening beside the person's data, each cleared or with its Clear button */
  function fill(text, values) { return String(text).replace(/[{](\\w+)[}]/g, function (m, k) { return values[k] === undefined ? m : String(values[k]); }); }
  function screeningPanel(doc) {
    var rule = doc.rules && doc.rules.results.find(function (r) { return r.name === 'person.screening'; });
    if (!rule || !rule.hits || !rule.hits.length) return null;
    return el('section', { class: 'screening', 'aria-label': T['screening.title'] }, [
      el('h4', { text: T['screening.title'] }),
      el('ul', { class: 'hits' }, rule.hits.map(function (h) {
        var parts = [
          el('p', { class: 'hit-name', text: fill(T['screening.hit'], { name: h.name, list: h.list, reference: h.reference, programmes: h.programmes.join(', ') || '—', score: h.score.toFixed(2) }) }),
          el('ul', { class: 'reasons' }, h.reasons.map(function (r) { return el('li', { text: r }); }))];
        if (h.cleared) parts.push(el('p', { class: 'cleared', text: fill(T['screening.cleared'], { user: h.cleared.user, when: when(h.cleared.created_at), comment: h.cleared.comment }) }));
        else parts.push(actionButton('clear-' + h.list + '-' + h.entry, fill(T['screening.clear'], { list: h.list, reference: h.reference }), 'danger', function () { clearHit(h); }));
        return el('li', { class: h.cleared ? 'hit is-cleared' : 'hit', 'data-entry': h.list + ':' + h.entry }, parts);
      }))]);
  }
  function clearHit(h) {
    if (!canAct() || !state.caseData) return;
    var v = state.caseData;
    confirmDialog(T['screening.confirm.title'], fill(T['screening.confirm.text'], { name: h.name, list: h.list, reference: h.reference }) + ' Recorded as ' + state.me.name + '.', T['screening.confirm.ok'], true).then(function (comment) {
      if (comment === null) return;
      return api('POST', pathFor(state.summary) + '/screening/clear', { list: h.list, entry: h.entry, comment: comment }).then(function () {
        say(fill(T['screening.done'], { list: h.list, reference: h.reference }));
        return api('GET', pathFor(state.summary)).then(function (res) { state.caseData = res.data; renderCase(); });
      }, function (e) { showError(e.message); });
    });
  }
  // A selfie's liveness check (GET …/documents/{id}/liveness): its outcome in words and, for Rekognition, the reference and
  // audit images through their signed links, shown by the document viewer with their alt texts. Nothing for a still selfie (404).
  function livenessPanel(doc) {
    var box = el('section', { class: 'liveness', 'aria-label': T['liveness.title'], hidden: true });
    api('GET', '/api/v1/' + state.flows[state.caseData.flow] + '/documents/' + doc.id + '/liveness').then(function (res) {
      var images = livenessImages(res.data, T);
      box.appendChild(el('h4', { text: T['liveness.title'] }));
      box.appendChild(kvTable(livenessRows(res.data, T, when), T['liveness.title']));
      if (images.length) box.appendChild(el('div', { class: 'liveness-images', role: 'group', 'aria-label': T['liveness.images'] }, images.map(function (im) { return viewer(im.url, im.alt); })));
      box.hidden = false;
    }, function (e) {
      if (e.status === 404) { box.remove(); return; }
      box.appendChild(el('p', { class: 'hint', text: T['liveness.unreadable'] + ' ' + e.message }));
      box.hidden = false;
    });
    return box;
  }
  function actionButton(id, text, cls, handler) {
    var b = el('button', { type: 'button', id: id, class: cls, text: text, disabled: !canAct() });
    b.addEventListener('click', handler);
    return b;
  }
  function renderCase() {
    var v = state.caseData; var c = $('case'); c.textContent = '';
    var name = personName(v) || v.id;
    var nav = el('div', { class: 'nav' }, [
      actionButton('back', 'Back to list', 'quiet', backToList),
      actionButton('prev-case', 'Previous case', 'quiet', function () { move(-1); }),
      actionButton('next-case', 'Next case', 'quiet', function () { move(1); })]);
    [].forEach.call(nav.querySelectorAll('button'), function (b) { b.disabled = false; });
    c.appendChild(el('div', { class: 'case-head' }, [
      el('div', {}, [
        el('h2', { id: 'detail-status', text: name + ' — ' + v.status_label }),
        el('ul', { class: 'meta' }, [
          el('li', { text: 'Id ' + v.id }), el('li', { text: 'Reference ' + (v.vendor_reference || '—') }), el('li', { text: 'Flow ' + v.flow }),
          el('li', { text: 'Created ' + when(v.created_at) }), el('li', { text: 'Submitted ' + (v.submitted_at ? when(v.submitted_at) : '—') })])]),
      nav]));
    var select = el('select', { id: 'set-status', disabled: !canAct() }, [el('option', { value: '', text: 'Choose a status…' })].concat(
      Object.keys(STATUS).filter(function (s) { return STATUS[s] !== v.status_label; }).map(function (s) { return el('option', { value: s, text: STATUS[s] + (s === '5' ? ' (runs the checks again)' : '') }); })));
    c.appendChild(el('div', { class: 'actions', role: 'group', 'aria-label': 'Decision' }, [
      actionButton('action-approve', 'Approve (A)', 'good', function () { act('approve'); }),
      actionButton('action-reject', 'Reject (R)', 'danger', function () { act('reject'); }),
      actionButton('action-resubmit', 'Run the checks again', 'quiet', function () { act('resubmit'); }),
      el('span', { class: 'sep' }),
      el('div', {}, [el('label', { for: 'set-status', text: 'Change status' }), select]),
      actionButton('action-status', 'Change', 'quiet', function () { if (select.value) act('status', select.value); else showError('Choose a status first.'); }),
      actionButton('action-cancel', 'Cancel verification', 'danger', function () { act('cancel'); }),
      actionButton('action-delete', 'Delete', 'danger', function () { act('delete'); })]));
    v.documents.forEach(function (doc) {
      var box = el('section', { class: 'doc', 'aria-label': doc.document_type.name }, [
        el('h3', { text: doc.document_type.type_label + ': ' + doc.document_type.name + ' (' + doc.country.name + ') — ' + doc.status_label })]);
      var views = [doc.url_front, doc.url_back].filter(Boolean).map(function (u, i) { return viewer(u, doc.document_type.name + ', ' + (i ? 'back' : 'front') + ' side'); });
      var right = el('div', {}, [screeningPanel(doc), el('h4', { text: 'Expected and extracted' }), comparison(doc), doc.document_type.type_label === 'Selfie' ? livenessPanel(doc) : null]);
      if (!Array.isArray(doc.extracted_data)) right.appendChild(el('details', {}, [el('summary', { text: 'Everything extracted' }), kvTable(flatten(doc.extracted_data, '', []), 'Extracted data')]));
      // The API makes a report of an Approved verification only (Download Document PDF): offered then, else said when.
      if (v.status_label === 'Approved') {
        var pdf = el('button', { type: 'button', class: 'quiet', text: T['report.download'] });
        pdf.addEventListener('click', function () { download(doc); });
        right.appendChild(pdf);
      } else right.appendChild(el('p', { class: 'hint', text: T['report.unavailable'] }));
      box.appendChild(el('div', { class: 'doc-grid' }, [el('div', {}, views), right]));
      c.appendChild(box);
    });
    c.appendChild(el('h3', { text: 'Expected data' }));
    c.appendChild(kvTable(flatten(v.expected_data, '', []), 'Expected data'));
    c.appendChild(el('h3', { text: 'History' }));
    c.appendChild(el('table', {}, [el('caption', { class: 'visually-hidden', text: 'History, newest first' }),
      el('thead', {}, [el('tr', {}, ['When', 'Change', 'By', 'Comment'].map(function (h) { return el('th', { scope: 'col', text: h }); }))]),
      el('tbody', {}, v.history.map(function (h) { return el('tr', {}, [el('td', { text: when(h.created_at) }), el('td', { text: (h.from_status || '—') + ' → ' + h.to_status }), el('td', { text: h.user }), el('td', { text: h.comment || '' })]); }))]));
    if (v.comments.length) {
      c.appendChild(el('h3', { text: 'Comments' }));
      c.appendChild(el('ul', {}, v.comments.map(function (m) { return el('li', { text: when(m.created_at) + ' [' + m.status + '] ' + m.content }); })));
    }
  }
  function download(doc) {
    api('GET', '/api/v1/' + state.flows[state.caseData.flow] + '/documents/' + doc.id + '/pdf').then(function (res) {
      var bytes = Uint8Array.from(atob(res.data), function (ch) { return ch.charCodeAt(0); });
      var a = el('a', { href: URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' })), download: doc.id + '.pdf' });
      document.body.appendChild(a); a.click(); a.remove();
    }, function (e) { showError(e.message); });
  }

  /* Confirmation, then the action; the case and the list are read again after it */
  var ACTIONS = {
    approve: { title: 'Approve this verification?', ok: 'Approve', done: 'Approved' },
    reject: { title: 'Reject this verification?', ok: 'Reject', done: 'Rejected' },
    resubmit: { title: 'Run the checks again?', ok: 'Run again', done: 'Submitted again' },
    cancel: { title: 'Cancel this verification?', ok: 'Cancel verification', done: 'Canceled', text: 'Canceled is final: it cannot be reopened.' },
    delete: { title: 'Delete this verification?', ok: 'Delete', done: 'Deleted', text: 'It disappears at once and is purged with its images after the retention period. This cannot be undone.', noComment: true },
    status: { title: 'Change the status?', ok: 'Change status', done: 'Status changed' },
  };
  function act(kind, status) {
    if (!canAct() || !state.caseData) return;
    var v = state.caseData; var a = ACTIONS[kind];
    var text = a.text || '';
    if (kind === 'status') {
      text = 'From ' + v.status_label + ' to ' + STATUS[status] + '.' + ((v.status_label === 'Approved' || v.status_label === 'Rejected') ? ' This reopens a decided case.' : '');
    }
    confirmDialog(a.title, (personName(v) || v.id) + '. ' + text + ' Recorded as ' + state.me.name + '.', a.ok, !a.noComment).then(function (comment) {
      if (comment === null) return;
      var request = kind === 'delete' ? api('DELETE', pathFor(state.summary))
        : kind === 'status' ? api('PATCH', pathFor(state.summary), { status: Number(status), comment: comment })
        : api('PUT', pathFor(state.summary) + '/' + kind, { comment: comment });
      return request.then(function () {
        say(a.done + ': ' + (personName(v) || v.id) + '.');
        if (kind === 'delete') return loadList().then(backToList);
        var id = v.id;
        return loadList().then(function () {
          var i = state.items.findIndex(function (x) { return x.id === id; });
          if (i >= 0) return openCase(i);
          // It left the list (e.g. no longer Double Check): show it as it is now.
          return api('GET', pathFor(state.summary)).then(function (res) { state.caseData = res.data; state.current = -1; renderCase(); renderRows(); });
        });
      }, function (e) { showError(e.message); });
    });
  }
  function confirmDialog(title, text, ok, withComment) {
    var d = $('confirm');
    $('confirm-title').textContent = title; $('confirm-text').textContent = text; $('confirm-ok').textContent = ok;
    $('confirm-comment-box').hidden = !withComment; $('confirm-comment').value = ''; $('confirm-error').hidden = true;
    var opener = document.activeElement;
    d.showModal();
    (withComment ? $('confirm-comment') : $('confirm-cancel')).focus();
    return new Promise(function (resolve) {
      function done(value) {
        $('confirm-form').removeEventListener('submit', submit); $('confirm-cancel').removeEventListener('click', cancel); d.removeEventListener('cancel', cancel);
        d.close(); if (opener && opener.focus) opener.focus(); resolve(value);
      }
      function submit(e) {
        e.preventDefault();
        var comment = $('confirm-comment').value.trim();
        if (withComment && !comment) { var err = $('confirm-error'); err.textContent = 'A comment is required: it is recorded in history.'; err.hidden = false; $('confirm-comment').focus(); return; }
        done(comment);
      }
      function cancel(e) { if (e) e.preventDefault(); done(null); }
      $('confirm-form').addEventListener('submit', submit); $('confirm-cancel').addEventListener('click', cancel); d.addEventListener('cancel', cancel);
    });
  }

  /* Keyboard shortcuts (not while typing, not under the dialog) */
  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || $('confirm').open || $('app').hidden) return;
    var t = e.target; var typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');
    if (typing) { if (e.key === 'Escape') t.blur(); return; }
    var key = e.key.toLowerCase(); var inCase = !$('case').hidden;
    if (key === 'j') { e.preventDefault(); if (inCase) move(1); else openCase(state.current >= 0 ? Math.min(state.current + 1, state.items.length - 1) : 0); }
    else if (key === 'k') { e.preventDefault(); if (inCase) move(-1); else if (state.current > 0) openCase(state.current - 1); }
    else if (key === 'a' && inCase) { e.preventDefault(); act('approve'); }
    else if (key === 'r' && inCase) { e.preventDefault(); act('reject'); }
    else if (key === '/') { e.preventDefault(); if (inCase) backToList(); $('search').focus(); }
    else if (key === 'escape' && inCase) { e.preventDefault(); backToList(); }
  }

  document.addEventListener('DOMContentLoaded', function () {
    $('signin').addEventListener('submit', function (e) {
      e.preventDefault();
      sessionStorage.setItem('idvToken', $('token').value);
      $('token').value = '';
      say(''); showError('');
      signIn();
    });
    $('signout').addEventListener('click', function () { signOut(); });
    $('filters').addEventListener('submit', function (e) { e.preventDefault(); state.page = 1; state.current = -1; loadList(); });
    $('status-filter').addEventListener('change', function () { state.page = 1; state.current = -1; loadList(); });
    $('flow-filter').addEventListener('change', function () { state.page = 1; state.current = -1; loadList(); });
    $('prev').addEventListener('click', function () { state.page = Math.max(1, state.page - 1); state.current = -1; loadList(); });
    $('next').addEventListener('click', function () { state.page += 1; state.current = -1; loadList(); });
    document.addEventListener('keydown', onKey);
    if (token()) signIn();
  });
})();
`;
