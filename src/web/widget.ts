import { ALL_ISO3, countryByIso3 } from '../domain/countries';
import { contentSecurityPolicy, pageShell } from './page';

/**
 * The end-user widget: one HTML page, one script, one stylesheet, all served by the service itself
 * (no CDN), under a strict Content-Security-Policy (no inline script or style).
 */
export const WIDGET_CSP = contentSecurityPolicy("'self' blob: data:");

/** Every country a flow may allow, as [alpha-3, English name] sorted by name: the person picks a name, not a code. */
const COUNTRIES = ALL_ISO3.flatMap((iso3): [string, string][] => {
  const country = countryByIso3(iso3);
  return country ? [[iso3, country.name]] : [];
}).sort((a, b) => a[1].localeCompare(b[1], 'en'));

const ASK_FOR_NEW = 'Ask the company that sent you this link for a new one.';

/**
 * What the person reads once the link no longer takes documents, by verification status label: what
 * happened and, where they can do something, what. Served in the closed page and in the script (the
 * text that replaces the form after Submit), so both say the same.
 */
export const OUTCOMES: Readonly<Record<string, string>> = {
  Submitted: 'Thank you: we received your documents and are checking them.',
  'Double Check': 'Thank you: your documents are being reviewed.',
  Hold: 'Thank you: your documents are being reviewed.',
  Approved: 'Thank you: your identity is verified.',
  Rejected: 'We could not verify your identity with these documents. If you think this is a mistake, contact the company that sent you this link.',
  Canceled: `This verification was canceled, so this link no longer works. ${ASK_FOR_NEW}`,
  Expired: `This link has expired. ${ASK_FOR_NEW}`,
};
const UNKNOWN_LINK = `This link does not work: it may be incomplete, mistyped or very old. ${ASK_FOR_NEW}`;

/**
 * The page of a link, by the status label of its verification (null: the link reaches none). Only a
 * Started verification gets the widget; any other gets a page in plain words and no script. An
 * unknown link is 404; a known one is 200 whatever its state, since the link still works as a
 * page that tells what became of the verification (no status beyond the contract's).
 */
export function widgetPageFor(statusLabel: string | null, trailingSlash = false): { statusCode: number; body: string } {
  // The page is /v/<token> (or /v/<token>/): its assets, at /widget/, are one (or two) directories up.
  const assets = trailingSlash ? '../../' : '../';
  if (statusLabel === 'Started') return { statusCode: 200, body: widgetPage(assets) };
  const text = statusLabel === null ? UNKNOWN_LINK : (OUTCOMES[statusLabel] ?? statusLabel);
  const body = `<main id="app">
  <h1>Identity verification</h1>
  <p id="status">${text}</p>
</main>`;
  return { statusCode: statusLabel === null ? 404 : 200, body: pageShell('Identity verification', assets, 'widget', body, false) };
}

function widgetPage(assets: string): string {
  return pageShell(
    'Identity verification',
    assets,
    'widget',
    `<main id="app">
  <h1>Verify your identity</h1>
  <p id="status" aria-live="polite">Loading…</p>
  <div id="contexts"></div>
  <button id="submit" type="button" disabled>Submit documents</button>
  <aside id="handoff">
    <h2>Continue on your phone</h2>
    <img id="qr" alt="QR code of this page" width="160" height="160">
  </aside>
</main>`,
  );
}

export const WIDGET_CSS = `[hidden]{display:none!important}
body{font-family:system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1b1d21}
main{max-width:44rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem}section{background:#fff;border-radius:.5rem;padding:1rem;margin:1rem 0;box-shadow:0 1px 3px #0002}
label{display:block;margin:.5rem 0 .2rem;font-weight:600}select,input{font-size:1rem;width:100%;max-width:24rem}
button{font-size:1rem;padding:.6rem 1.2rem;margin:.5rem .5rem 0 0;border-radius:.4rem;border:1px solid #2450b2;background:#2f62d6;color:#fff;cursor:pointer}
button:disabled{background:#9aa7c4;border-color:#9aa7c4;cursor:not-allowed}button.secondary{background:#fff;color:#2450b2}
button:focus-visible,select:focus-visible,input:focus-visible{outline:3px solid #f2a900;outline-offset:2px}
.preview{max-width:12rem;max-height:8rem;display:block;margin:.5rem 0}.done{color:#1f7a3a;font-weight:600}
.field-error{color:#b00020;font-weight:600;margin:.3rem 0}progress{width:100%}
#handoff{display:none}@media (min-width:900px){#handoff{display:block;background:#fff;padding:1rem;border-radius:.5rem;margin:1rem 0;box-shadow:0 1px 3px #0002}}
`;

/** Plain browser JavaScript (no build step), served as /widget/widget.js. */
export const WIDGET_JS = `'use strict';
(function () {
  var base = location.pathname.replace(/\\/$/, '');
  var MAX = 3.5 * 1024 * 1024;
  var state = null;
  // True while Submit's request runs: nothing (an upload's re-render included) enables the button again.
  var submitting = false;
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (k === 'text') e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { e.appendChild(c); });
    return e;
  }
  function clearErrors() {
    Array.prototype.forEach.call(document.querySelectorAll('.field-error'), function (m) {
      var control = document.getElementById(m.getAttribute('data-for'));
      if (control) { control.removeAttribute('aria-invalid'); control.removeAttribute('aria-describedby'); }
      m.parentNode.removeChild(m);
    });
  }
  /**
   * The message goes right after the control it is about (not at the foot of the page, out of sight
   * on a phone), is announced (live region, and the control's description), and the focus moves to
   * that control, where the person fixes it.
   */
  function showError(control, message) {
    clearErrors();
    var m = el('p', { id: control.id + '-error', class: 'field-error', 'data-for': control.id, role: 'alert', 'aria-live': 'assertive', text: message });
    control.parentNode.insertBefore(m, control.nextSibling);
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-describedby', m.id);
    control.focus();
  }
  function api(method, path, body) {
    return fetch(base + path, { method: method, headers: { 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })
      .then(function (res) {
        if (res.status === 204) return null;
        return res.json().then(function (json) {
          if (!res.ok) {
            var details = json.errors ? Object.keys(json.errors).map(function (k) { return k + ': ' + json.errors[k].join(', '); }).join('; ') : '';
            var error = new Error((json.message || 'Something went wrong') + (details ? ' (' + details + ')' : ''));
            error.status = res.status;
            throw error;
          }
          return json.data;
        });
      }, function () { throw new Error('We could not reach the service: check your connection and try again.'); });
  }
  /** A session that no longer takes documents (submitted, canceled, expired meanwhile): the page shows it. */
  function closed(e) { return e.status === 400 && /closed|not in Started|canceled/.test(e.message); }
  /**
   * A refused upload in plain words, next to the control the server names (back_side_data, country,
   * type; else the front side, the file the person chose).
   */
  function uploadProblem(e, controls, pdf) {
    var control = /back_side_data/.test(e.message) ? controls.back : /country/.test(e.message) && controls.country ? controls.country : /\\btype\\b/.test(e.message) ? controls.type : controls.front;
    if (/larger than/.test(e.message)) return [control, 'This file is too large: choose a smaller one.'];
    if (/_side_data|image|PDF/.test(e.message)) return [control, 'We could not read this file: choose a photo (JPEG, PNG or WebP)' + (pdf ? ' or a PDF' : '') + '.'];
    return [control, e.message];
  }
  function readFile(file) {
    return new Promise(function (resolve, reject) {
      if (file.size <= MAX || !/^image\\//.test(file.type)) {
        var r = new FileReader();
        r.onload = function () { resolve(String(r.result).split(',')[1]); };
        r.onerror = reject;
        r.readAsDataURL(file);
        return;
      }
      // Too large: scale the photo down in the browser before sending it.
      var img = new Image();
      img.onload = function () {
        var scale = Math.min(1, 2400 / Math.max(img.width, img.height));
        var c = document.createElement('canvas');
        c.width = Math.round(img.width * scale); c.height = Math.round(img.height * scale);
        c.getContext('2d').drawImage(img, 0, 0, c.width, c.height);
        resolve(c.toDataURL('image/jpeg', 0.85).split(',')[1]);
      };
      img.onerror = function () { reject(new Error('This file is not an image we can read')); };
      img.src = URL.createObjectURL(file);
    });
  }
  var OUTCOMES = ${JSON.stringify(OUTCOMES)};
  var COUNTRIES = ${JSON.stringify(COUNTRIES)};
  function countryName(iso3) { var c = COUNTRIES.filter(function (n) { return n[0] === iso3; })[0]; return c ? c[1] : iso3; }
  /**
   * The API asks a country of every document, the selfie's too, which has none: it is sent with the
   * photo ID's (the document it is compared with), uploaded or else expected, or else the first the
   * selfie type allows (it allows any).
   */
  function selfieCountry(t) {
    var photoId = state.documents.filter(function (d) { return d.context_type === 'PHOTO_ID'; })[0];
    var expected = state.contexts.filter(function (c) { return c.context_type === 'PHOTO_ID'; })[0];
    return (photoId && photoId.country) || (expected && expected.expected_country) || t.allowed_countries[0];
  }
  function contextSection(ctx) {
    var uploaded = state.documents.filter(function (d) { return d.context_type === ctx.context_type; })[0];
    var id = 'ctx-' + ctx.context_type;
    var section = el('section', { id: id, 'aria-labelledby': id + '-h' }, [el('h2', { id: id + '-h', text: ctx.label + (ctx.required ? '' : ' (optional)') })]);
    if (uploaded) {
      section.appendChild(el('p', { class: 'done', text: uploaded.type + (ctx.context_type === 'SELFIE' ? '' : ' (' + countryName(uploaded.country) + ')') + ' uploaded' }));
      var retake = el('button', { id: id + '-retake', type: 'button', class: 'secondary', text: 'Retake' });
      retake.addEventListener('click', function () { api('DELETE', '/documents/' + uploaded.id).then(load, function (e) { if (closed(e)) load(); else showError(retake, e.message); }); });
      section.appendChild(retake);
      return section;
    }
    var types = state.document_types.filter(function (t) { return t.context_type === ctx.context_type; });
    var typeSelect = el('select', { id: id + '-type', name: 'type' }, types.map(function (t) { return el('option', { value: String(t.id), text: t.name }); }));
    // A selfie has no issuing country: the person is not asked for one.
    var countrySelect = ctx.context_type === 'SELFIE' ? null : el('select', { id: id + '-country', name: 'country' });
    var pdf = ctx.context_type === 'PROOF_OF_ADDRESS';
    // No "capture" attribute, the selfie's included: without it a phone's chooser offers the camera
    // (front or rear, the person picks) and the photos and files already there; with it the camera
    // opens directly and a PDF statement or an earlier photo cannot be chosen.
    var front = el('input', { id: id + '-front', type: 'file', accept: pdf ? 'image/*,application/pdf' : 'image/*' });
    var back = el('input', { id: id + '-back', type: 'file', accept: 'image/*' });
    var backLabel = el('label', { for: id + '-back', text: 'Back side' });
    var preview = el('img', { class: 'preview', alt: '' });
    var progress = el('progress', { hidden: '' });
    function type() { return types.filter(function (t) { return String(t.id) === typeSelect.value; })[0]; }
    function country() { return countrySelect ? countrySelect.value : selfieCountry(type()); }
    function refresh() {
      var t = type();
      if (countrySelect) {
        // The person's choice survives a change of type; before any, the expected country is preselected.
        var current = countrySelect.value || ctx.expected_country;
        countrySelect.innerHTML = '';
        COUNTRIES.forEach(function (c) { if (t.allowed_countries.indexOf(c[0]) >= 0) countrySelect.appendChild(el('option', { value: c[0], text: c[1] })); });
        if (t.allowed_countries.indexOf(current) >= 0) countrySelect.value = current;
      }
      var twoSided = t.double_sided_countries.indexOf(country()) >= 0;
      back.hidden = backLabel.hidden = !twoSided;
    }
    typeSelect.addEventListener('change', refresh);
    if (countrySelect) countrySelect.addEventListener('change', refresh);
    front.addEventListener('change', function () { if (front.files[0] && /^image\\//.test(front.files[0].type)) preview.src = URL.createObjectURL(front.files[0]); });
    var upload = el('button', { type: 'button', text: 'Upload' });
    upload.addEventListener('click', function () {
      clearErrors();
      if (!front.files[0]) { showError(front, 'Choose a file or take a photo of the front first.'); return; }
      var t = type(); var twoSided = !back.hidden;
      if (twoSided && !back.files[0]) { showError(back, 'This document needs a photo of its back too.'); return; }
      progress.hidden = false; upload.disabled = true;
      Promise.all([readFile(front.files[0]), twoSided ? readFile(back.files[0]) : Promise.resolve(undefined)])
        .then(function (data) {
          var doc = { context_type: ctx.context_type, type: t.id, country: country(), front_side_data: data[0] };
          if (data[1]) doc.back_side_data = data[1];
          return api('POST', '/documents', { document: doc });
        })
        .then(load, function (e) {
          progress.hidden = true; upload.disabled = false;
          if (closed(e)) { load(); return; }
          var problem = uploadProblem(e, { type: typeSelect, country: countrySelect, front: front, back: back }, pdf);
          showError(problem[0], problem[1]);
        });
    });
    [el('label', { for: id + '-type', text: 'Document type' }), typeSelect].concat(countrySelect ? [el('label', { for: id + '-country', text: 'Issuing country' }), countrySelect] : [])
      .concat([el('label', { for: id + '-front', text: 'Front side' }), front, preview, backLabel, back, upload, progress]).forEach(function (c) { section.appendChild(c); });
    refresh();
    return section;
  }
  function render() {
    var status = document.getElementById('status');
    var contexts = document.getElementById('contexts');
    var submit = document.getElementById('submit');
    contexts.innerHTML = '';
    if (!state.open) {
      status.textContent = OUTCOMES[state.status_label] || state.status_label;
      submit.hidden = true;
      if (state.status_label === 'Submitted') setTimeout(load, 2000);
      return;
    }
    status.textContent = 'Upload the documents below, then submit.';
    state.contexts.forEach(function (ctx) { contexts.appendChild(contextSection(ctx)); });
    var missing = state.required_contexts.filter(function (c) { return !state.documents.some(function (d) { return d.context_type === c; }); });
    submit.disabled = submitting || missing.length > 0;
  }
  function load() { return api('GET', '/session').then(function (s) { state = s; render(); }, function (e) { document.getElementById('status').textContent = e.message; }); }
  document.addEventListener('DOMContentLoaded', function () {
    document.getElementById('qr').src = base + '/qr';
    var submit = document.getElementById('submit');
    var label = submit.textContent;
    function done() { submitting = false; submit.textContent = label; submit.removeAttribute('aria-busy'); }
    submit.addEventListener('click', function () {
      // A disabled button takes no tap: the second tap of an impatient person sends nothing.
      clearErrors();
      submitting = true; submit.disabled = true; submit.textContent = 'Submitting…'; submit.setAttribute('aria-busy', 'true');
      api('PUT', '/submit').then(function (result) {
        // The answer already says the new status: the form gives way to it at once (render polls on).
        done(); state.open = false; state.status_label = result.status_label; render();
      }, function (e) { done(); submit.disabled = false; if (closed(e)) load(); else showError(submit, e.message); });
    });
    load();
  });
})();
`;
