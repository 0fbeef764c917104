import { contentSecurityPolicy, pageShell } from './page';

/**
 * The reviewer console: one page, one script, one stylesheet served by the service. Reviewers sign
 * in with an API token, kept in sessionStorage (never in a URL), and act through the public API.
 */
export const CONSOLE_CSP = contentSecurityPolicy("'self' https: blob: data:");

export function consolePage(trailingSlash = false): string {
  return pageShell(
    'Verifications console',
    trailingSlash ? '../' : '',
    'console',
    `<main>
  <h1>Verifications</h1>
  <form id="signin">
    <label for="token">API token</label>
    <input id="token" type="password" autocomplete="off" required>
    <button type="submit">Sign in</button>
  </form>
  <section id="list" hidden>
    <label for="flow-filter">Flow</label>
    <select id="flow-filter"><option value="">All flows</option></select>
    <label for="status-filter">Status</label>
    <select id="status-filter"><option value="">Any</option><option>Started</option><option>Submitted</option><option>Double Check</option><option>Approved</option><option>Rejected</option><option>Canceled</option><option>Expired</option><option>Hold</option></select>
    <table><thead><tr><th>Created</th><th>Flow</th><th>Reference</th><th>Status</th><th></th></tr></thead><tbody id="rows"></tbody></table>
    <button id="prev" type="button">Previous</button> <span id="page"></span> <button id="next" type="button">Next</button>
  </section>
  <section id="detail" hidden></section>
  <p id="error" role="alert" hidden></p>
</main>`,
  );
}

export const CONSOLE_CSS = `[hidden]{display:none!important}
body{font-family:system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1b1d21}main{max-width:72rem;margin:0 auto;padding:1rem}
table{width:100%;border-collapse:collapse;background:#fff;margin:.5rem 0}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #ddd;vertical-align:top}
button{font-size:.95rem;padding:.4rem .9rem;margin:.2rem;border-radius:.3rem;border:1px solid #2450b2;background:#2f62d6;color:#fff;cursor:pointer}
button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #f2a900;outline-offset:2px}
.docs{display:flex;flex-wrap:wrap;gap:1rem}.doc{background:#fff;padding:.8rem;border-radius:.4rem;flex:1 1 30rem}.doc img{max-width:14rem;max-height:10rem;margin-right:.5rem}
.passed{color:#1f7a3a}.failed{color:#b00020}.review{color:#8a5a00}#error{color:#b00020;font-weight:600}label{font-weight:600;margin-right:.4rem}
textarea,input[type=email]{width:100%;max-width:30rem;display:block;margin:.2rem 0 .5rem}
`;

export const CONSOLE_JS = `'use strict';
(function () {
  var root = location.pathname.replace(/\\/console\\/?$/, '');
  var page = 1; var items = [];
  function token() { return sessionStorage.getItem('idvToken'); }
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (k === 'text') e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }
  function showError(m) { var e = document.getElementById('error'); e.textContent = m || ''; e.hidden = !m; }
  function api(method, path, body) {
    return fetch(root + path, { method: method, headers: { Authorization: 'Bearer ' + token(), 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })
      .then(function (res) {
        if (res.status === 204) return null;
        return res.json().then(function (json) {
          if (res.status === 401) { sessionStorage.removeItem('idvToken'); showSignIn(); }
          if (!res.ok) {
            var details = json.errors ? Object.keys(json.errors).map(function (k) { return k + ': ' + json.errors[k].join(', '); }).join('; ') : '';
            throw new Error((json.message || 'Request failed') + (details ? ' (' + details + ')' : ''));
          }
          return json;
        });
      });
  }
  function showSignIn() { document.getElementById('signin').hidden = false; document.getElementById('list').hidden = true; document.getElementById('detail').hidden = true; }
  function loadList() {
    showError('');
    var flow = document.getElementById('flow-filter').value;
    return api('GET', '/api/v1/' + (flow ? flow + '/' : '') + 'verifications?page=' + page).then(function (res) {
      document.getElementById('signin').hidden = true;
      document.getElementById('list').hidden = false;
      items = res.data;
      document.getElementById('page').textContent = 'Page ' + res.meta.current_page + ' of ' + res.meta.last_page + ' (' + res.meta.total + ')';
      document.getElementById('prev').disabled = !res.links.prev;
      document.getElementById('next').disabled = !res.links.next;
      renderRows();
      return fillFlows();
    }, function (e) { showError(e.message); });
  }
  function fillFlows() {
    var select = document.getElementById('flow-filter');
    if (select.options.length > 1) return;
    return resolveFlow(null).then(function (flows) {
      Object.keys(flows).forEach(function (name) { select.appendChild(el('option', { value: flows[name], text: name })); });
    });
  }
  function renderRows() {
    var filter = document.getElementById('status-filter').value;
    var rows = document.getElementById('rows'); rows.innerHTML = '';
    items.filter(function (v) { return !filter || v.status_label === filter; }).forEach(function (v) {
      var open = el('button', { type: 'button', 'data-id': v.id, text: 'Open' });
      open.addEventListener('click', function () { openDetail(v); });
      rows.appendChild(el('tr', {}, [el('td', { text: v.created_at.slice(0, 19).replace('T', ' ') }), el('td', { text: v.flow }), el('td', { text: v.vendor_reference || '' }), el('td', { text: v.status_label }), el('td', {}, [open])]));
    });
  }
  function pathFor(v) { return '/api/v1/' + v.flow_path + '/verifications/' + v.id; }
  function openDetail(summary) {
    showError('');
    // The list shows the flow's display name; the API paths need its path name.
    return resolveFlow(summary).then(function (flow) {
      summary.flow_path = flow;
      return api('GET', pathFor(summary));
    }).then(function (res) { renderDetail(summary, res.data); }, function (e) { showError(e.message); });
  }
  var flowCache = null;
  function resolveFlow(v) {
    var known = flowCache ? Promise.resolve(flowCache) : api('GET', '/api/v1/flows').then(function (r) {
      flowCache = {};
      r.data.forEach(function (f) { flowCache[f.name] = f.path; });
      return flowCache;
    });
    return known.then(function (flows) {
      if (!v) return flows;
      if (!flows[v.flow]) throw new Error('Unknown flow ' + v.flow);
      return flows[v.flow];
    });
  }
  function kv(obj) {
    return el('table', {}, Object.keys(obj).map(function (k) { return el('tr', {}, [el('th', { text: k }), el('td', { text: typeof obj[k] === 'object' ? JSON.stringify(obj[k]) : String(obj[k]) })]); }));
  }
  function renderDetail(summary, v) {
    var d = document.getElementById('detail'); d.innerHTML = ''; d.hidden = false;
    var back = el('button', { type: 'button', text: 'Back to list' }); back.addEventListener('click', function () { d.hidden = true; loadList(); });
    d.appendChild(back);
    d.appendChild(el('h2', { id: 'detail-status', text: v.id + ' — ' + v.status_label }));
    d.appendChild(el('h3', { text: 'Expected data' }));
    d.appendChild(kv({ person: v.expected_data.person, address: v.expected_data.address, documents: v.expected_data.documents }));
    var docs = el('div', { class: 'docs' });
    v.documents.forEach(function (doc) {
      var box = el('div', { class: 'doc' }, [el('h3', { text: doc.document_type.type_label + ': ' + doc.document_type.name + ' (' + doc.country.iso3 + ') — ' + doc.status_label })]);
      [doc.url_front, doc.url_back].filter(Boolean).forEach(function (u, i) {
        box.appendChild(el('a', { href: u, target: '_blank', rel: 'noopener' }, [el('img', { src: u, alt: (i ? 'Back' : 'Front') + ' side (open the link if it is a PDF)' })]));
      });
      if (!Array.isArray(doc.extracted_data)) {
        box.appendChild(el('h4', { text: 'Extracted data' }));
        box.appendChild(kv(doc.extracted_data));
      }
      if (doc.rules) {
        box.appendChild(el('h4', { text: 'Rules' }));
        box.appendChild(el('table', {}, doc.rules.results.map(function (r) { return el('tr', { class: r.result }, [el('td', { text: r.name }), el('td', { text: r.expected }), el('td', { text: r.extracted }), el('td', { text: r.result + ' (' + r.reason + ')' })]); })));
      }
      var pdf = el('button', { type: 'button', text: 'Download PDF report' });
      pdf.addEventListener('click', function () {
        api('GET', '/api/v1/' + summary.flow_path + '/documents/' + doc.id + '/pdf').then(function (res) {
          var bytes = Uint8Array.from(atob(res.data), function (c) { return c.charCodeAt(0); });
          var a = el('a', { href: URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' })), download: doc.id + '.pdf' });
          document.body.appendChild(a); a.click(); a.remove();
        }, function (e) { showError(e.message); });
      });
      box.appendChild(pdf);
      docs.appendChild(box);
    });
    d.appendChild(docs);
    var comment = el('textarea', { id: 'comment', rows: '2' }); var email = el('input', { id: 'email', type: 'email' });
    d.appendChild(el('h3', { text: 'Act' }));
    d.appendChild(el('label', { for: 'comment', text: 'Comment' })); d.appendChild(comment);
    d.appendChild(el('label', { for: 'email', text: 'Your e-mail' })); d.appendChild(email);
    ['approve', 'reject', 'resubmit', 'cancel'].forEach(function (action) {
      var b = el('button', { type: 'button', id: 'action-' + action, text: action.charAt(0).toUpperCase() + action.slice(1) });
      b.addEventListener('click', function () {
        showError('');
        api('PUT', pathFor(summary) + '/' + action, { comment: comment.value, email: email.value }).then(function () { return openDetail(summary); }, function (e) { showError(e.message); });
      });
      d.appendChild(b);
    });
    var statusSelect = el('select', { id: 'set-status' }, [['1', 'Started'], ['2', 'Submitted'], ['3', 'Approved'], ['4', 'Rejected'], ['5', 'Double Check (re-runs processing)'], ['6', 'Expired'], ['7', 'Canceled'], ['8', 'Hold']].map(function (o) { return el('option', { value: o[0], text: o[1] }); }));
    var setStatus = el('button', { type: 'button', id: 'action-status', text: 'Set status' });
    setStatus.addEventListener('click', function () {
      showError('');
      api('PATCH', pathFor(summary), { status: Number(statusSelect.value), comment: comment.value, email: email.value }).then(function () { return openDetail(summary); }, function (e) { showError(e.message); });
    });
    d.appendChild(el('p', {}, [el('label', { for: 'set-status', text: 'Change status' }), statusSelect, setStatus]));
    d.appendChild(el('h3', { text: 'History' }));
    d.appendChild(el('table', {}, v.history.map(function (h) { return el('tr', {}, [el('td', { text: h.created_at.slice(0, 19).replace('T', ' ') }), el('td', { text: (h.from_status || '—') + ' → ' + h.to_status }), el('td', { text: h.user }), el('td', { text: h.comment || '' })]); })));
    d.appendChild(el('h3', { text: 'Comments' }));
    d.appendChild(el('ul', {}, v.comments.map(function (c) { return el('li', { text: c.created_at.slice(0, 19).replace('T', ' ') + ' [' + c.status + '] ' + c.content }); })));
  }
  document.addEventListener('DOMContentLoaded', function () {
    document.getElementById('signin').addEventListener('submit', function (e) {
      e.preventDefault();
      sessionStorage.setItem('idvToken', document.getElementById('token').value);
      document.getElementById('token').value = '';
      loadList();
    });
    document.getElementById('status-filter').addEventListener('change', renderRows);
    document.getElementById('flow-filter').addEventListener('change', function () { page = 1; loadList(); });
    document.getElementById('prev').addEventListener('click', function () { page = Math.max(1, page - 1); loadList(); });
    document.getElementById('next').addEventListener('click', function () { page += 1; loadList(); });
    if (token()) loadList(); else showSignIn();
  });
})();
`;
