import { allIso3, countryByIso3 } from '../domain/countries';
import { LIVENESS_CSS, LIVENESS_JS } from './liveness-panel';
import { GATE_SIDE, gateVerdict, measurePixels } from './widget-gate';

/**
 * The widget's script and stylesheet, served as /widget/widget.js and /widget/widget.css by the
 * asset function alone (the page function does not bundle them). The texts are not in here: the
 * page carries those of its language (src/web/locales).
 */

/** Every country a flow may allow, as [alpha-3, alpha-2, English name]: the page names them in its language (Intl.DisplayNames). */
const COUNTRIES = allIso3().flatMap((iso3): [string, string, string][] => {
  const country = countryByIso3(iso3);
  return country ? [[iso3, country.iso2, country.name]] : [];
});

/**
 * Colours checked for WCAG 2.2 AA: text 4.5:1 or more on its background, the focus ring (#0b3d91)
 * 3:1 or more against the page and the white cards; every control at least 44 px tall and wide.
 * `--brand` is the flow's colour (config/flows.json `widget.primary_color`, itself checked for
 * 4.5:1 under white text).
 */
export const WIDGET_CSS = `[hidden]{display:none!important}
:root{--brand:#2f62d6}
body{font-family:system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1b1d21;line-height:1.45}
.top{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem;max-width:60rem;margin:0 auto;padding:.25rem 1rem;box-sizing:border-box}
.brand{display:flex;align-items:center;gap:.6rem;margin:.25rem 0;font-weight:700;font-size:1.05rem}
.logo{max-height:44px;max-width:12rem}
.monogram{display:inline-flex;align-items:center;justify-content:center;width:2.25rem;height:2.25rem;border-radius:.5rem;background:var(--brand);color:#fff;font-weight:700}
.foot{display:flex;flex-wrap:wrap;align-items:center;justify-content:center;gap:.25rem 1.25rem;max-width:60rem;margin:0 auto;padding:.5rem 1rem 1.5rem;color:#41464f;font-size:.95rem;box-sizing:border-box}
.foot a,a.inline-link{display:inline-flex;align-items:center;min-height:44px;color:#1d3f8f}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.langs ul{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;margin:0;padding:0}
.langs a{display:inline-flex;align-items:center;min-height:44px;min-width:44px;padding:0 .6rem;color:#1d3f8f;border-radius:.4rem}
.langs a[aria-current]{font-weight:700;text-decoration:none;background:#e3e9f7}
.layout{max-width:60rem;margin:0 auto;padding:0 1rem 1rem;box-sizing:border-box}
main{max-width:40rem}body>main{margin:0 auto;padding:0 1rem}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.15rem}
h1:focus{outline:none}h1:focus-visible{outline:3px solid #0b3d91;outline-offset:2px}
.progress{margin:.5rem 0 .25rem;color:#41464f;font-weight:600}
.track{height:.4rem;background:#dde2ea;border-radius:.2rem;overflow:hidden}#progress-bar{height:100%;width:0;background:var(--brand)}
.card{background:#fff;border-radius:.5rem;padding:1rem;margin:1rem 0;box-shadow:0 1px 3px #0002}.card>:first-child{margin-top:0}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
select,input[type=search]{font-size:1rem;width:100%;max-width:26rem;min-height:44px;box-sizing:border-box}
input[type=search]{padding:.4rem;border:1px solid #6b7280;border-radius:.4rem;background:#fff;color:#1b1d21}
select{padding:.4rem;border:1px solid #6b7280;border-radius:.4rem;background:#fff;color:#1b1d21}
input.file{position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
label.pick{display:inline-flex;align-items:center;box-sizing:border-box;min-height:44px;min-width:44px;max-width:26rem;padding:.5rem 1rem;margin:.75rem 0 .25rem;border:2px solid var(--brand);border-radius:.4rem;background:#fff;color:var(--brand);cursor:pointer}
input.file:focus+label.pick{outline:3px solid #0b3d91;outline-offset:2px}
input.file[aria-invalid]+label.pick{border-color:#b00020}
.chosen{display:block;color:#41464f;overflow-wrap:anywhere}
.check{display:flex;align-items:center;gap:.6rem;min-height:44px;font-weight:400;margin:.75rem 0}
.check input{width:1.5rem;height:1.5rem;flex:none;margin:0}
button,a.button{display:inline-flex;align-items:center;justify-content:center;box-sizing:border-box;font-size:1rem;min-height:44px;min-width:44px;padding:.5rem 1.2rem;margin:.75rem .5rem 0 0;border-radius:.4rem;border:2px solid var(--brand);background:var(--brand);color:#fff;cursor:pointer;text-decoration:none}
button.secondary{background:#fff;color:var(--brand)}
button:disabled{background:#5c6478;border-color:#5c6478;color:#fff;cursor:not-allowed}
a:focus-visible,button:focus-visible,select:focus-visible,input:focus-visible{outline:3px solid #0b3d91;outline-offset:2px}
.hint{color:#41464f}
.notice{background:#fff4d6;border-left:4px solid #8a5a00;padding:.6rem .8rem;color:#3d2a00}
.preview{max-width:14rem;max-height:10rem;display:block;margin:.5rem 0;border-radius:.3rem}
.guide{margin:.75rem 0}.guide figcaption{color:#41464f;margin-top:.4rem}
.frame{position:relative;box-sizing:border-box;width:100%;max-width:22rem;aspect-ratio:1.5;border-radius:.6rem;background:#eef1f6;overflow:hidden;
background-image:linear-gradient(var(--brand),var(--brand)),linear-gradient(var(--brand),var(--brand)),linear-gradient(var(--brand),var(--brand)),linear-gradient(var(--brand),var(--brand)),linear-gradient(var(--brand),var(--brand)),linear-gradient(var(--brand),var(--brand)),linear-gradient(var(--brand),var(--brand)),linear-gradient(var(--brand),var(--brand));
background-repeat:no-repeat;background-size:2rem 4px,4px 2rem,2rem 4px,4px 2rem,2rem 4px,4px 2rem,2rem 4px,4px 2rem;
background-position:top left,top left,top right,top right,bottom left,bottom left,bottom right,bottom right}
.frame.page{aspect-ratio:.72;max-width:13rem}
.frame.face{aspect-ratio:.8;max-width:12rem;border-radius:50%;background:#eef1f6;border:3px dashed var(--brand)}
.frame .preview{position:absolute;inset:0;width:100%;height:100%;max-width:none;max-height:none;margin:0;object-fit:contain;background:#1b1d21}
.camera{margin:.5rem 0}.live{display:block;width:100%;max-width:26rem;border-radius:.4rem;background:#1b1d21;transform:scaleX(-1)}
.done{color:#1f6e35;font-weight:600}
.check-ok{color:#1f6e35;font-weight:600;margin:.3rem 0}
.check-warn{color:#7a4d00;font-weight:600;margin:.3rem 0}
.field-error{color:#b00020;font-weight:600;margin:.3rem 0}
.review{list-style:none;padding:0;margin:0}.review li{padding:.6rem 0;border-bottom:1px solid #dde2ea}
.review .what{display:block;font-weight:600}
.missing{color:#b00020}
#handoff{display:none}#copy-note{margin:.5rem 0 0}
#handoff ol{padding-left:1.2rem}
#qr{display:block;background:#fff}
@media (min-width:900px){
.layout{display:flex;justify-content:center;gap:2rem;align-items:flex-start}
.layout main{flex:0 1 40rem;min-width:0}#handoff{flex:0 0 18rem;box-sizing:border-box}
#handoff{display:block;background:#fff;padding:1rem;border-radius:.5rem;margin:1rem 0;box-shadow:0 1px 3px #0002}
}
${LIVENESS_CSS}`;

/** Plain browser JavaScript (no build step), served as /widget/widget.js. */
export const WIDGET_JS = `'use strict';
(function () {
  var base = location.pathname.replace(/\\/$/, '');
  var MAX = 3.5 * 1024 * 1024;
  var GATE_SIDE = ${GATE_SIDE};
  var measurePixels = (${String(measurePixels)});
  var gateVerdict = (${String(gateVerdict)});
  var COUNTRIES = ${JSON.stringify(COUNTRIES)};
  var T = JSON.parse(document.getElementById('i18n').textContent);
  var LANG = document.documentElement.lang || 'en';
  var state = null;
  var steps = [];
  var current = 0;
  var skipped = {};
  // True while a request runs: Submit stays disabled, and the desktop's polling leaves the page alone.
  var busy = false;
  // The person chose a file on this step: following another device would throw it away.
  var dirty = false;
  /**
   * The consent and the skipped steps outlive a reload (the language switcher reloads the page) in
   * sessionStorage; where it is refused (a privacy mode) they last as long as the page.
   */
  function recall(key) { try { return sessionStorage.getItem('idv-' + key + ':' + base); } catch (e) { return null; } }
  function remember(key, value) { try { sessionStorage.setItem('idv-' + key + ':' + base, value); } catch (e) { /* kept in the page */ } }
  var consentGiven = recall('consent') === 'yes';
  function consented() { return consentGiven; }
  function consent() { consentGiven = true; remember('consent', 'yes'); }
  try { skipped = JSON.parse(recall('skipped') || '{}') || {}; } catch (e) { skipped = {}; }

  /** A text of the page's language, with {name} placeholders filled. */
  function t(key, vars) {
    var s = T[key] !== undefined ? T[key] : key;
    Object.keys(vars || {}).forEach(function (k) { s = s.split('{' + k + '}').join(vars[k]); });
    return s;
  }
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (k === 'text') e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  var names = null;
  try { names = new Intl.DisplayNames([LANG], { type: 'region' }); } catch (e) { names = null; }
  /** A country's name in the page's language (the English name where the browser has none). */
  function countryName(iso3) {
    var c = COUNTRIES.filter(function (n) { return n[0] === iso3; })[0];
    if (!c) return iso3;
    var local = null;
    try { local = names && names.of(c[1]); } catch (e) { local = null; }
    return local && local !== c[1] ? local : c[2];
  }
  var sortedCountries = COUNTRIES.map(function (c) { return [c[0], countryName(c[0])]; })
    .sort(function (a, b) { return a[1].localeCompare(b[1], LANG); });
  /** The country of the browser's locale (de-AT: AUT), the preselection when none is expected. */
  function localeCountry() {
    var tags = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ''];
    for (var i = 0; i < tags.length; i++) {
      var region = (/^[a-z]{2,3}-([A-Z]{2})\\b/i.exec(tags[i]) || [])[1];
      var c = region && COUNTRIES.filter(function (n) { return n[1] === region.toUpperCase(); })[0];
      if (c) return c[0];
    }
    return null;
  }
  /** A name for matching: lower case, accents off (é: e). */
  function fold(s) { return s.toLocaleLowerCase(LANG).normalize('NFD').replace(/[\\u0300-\\u036f]/g, ''); }
  function contextName(ctx) { return t('ctx.' + ctx); }
  function typeName(name) { return T['type.' + name] || name; }

  /** The status line: the page's one live region. */
  function announce(text) { document.getElementById('status').textContent = text; }
  function clearErrors() {
    Array.prototype.forEach.call(document.querySelectorAll('.field-error'), function (m) {
      var control = document.getElementById(m.getAttribute('data-for'));
      if (control) {
        // The control gets back the description it had (a file input's hint and check).
        var before = control.getAttribute('data-describedby');
        control.removeAttribute('aria-invalid');
        if (before) control.setAttribute('aria-describedby', before); else control.removeAttribute('aria-describedby');
        control.removeAttribute('data-describedby');
      }
      m.parentNode.removeChild(m);
    });
  }
  /**
   * The message goes right after the control it is about (not at the foot of the page, out of sight
   * on a phone); the control is described by it and gets the focus, where the person fixes it; the
   * status line says it too (focus staying on the same control would announce nothing).
   */
  function showError(control, message, after) {
    clearErrors();
    var m = el('p', { id: control.id + '-error', class: 'field-error', 'data-for': control.id, text: message });
    // A file input's message goes after what is shown of it (its label-button and the file's name).
    var anchor = after || document.getElementById(control.id + '-check') || control;
    anchor.parentNode.insertBefore(m, anchor.nextSibling);
    var before = control.getAttribute('aria-describedby');
    if (before) control.setAttribute('data-describedby', before);
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-describedby', m.id + (before ? ' ' + before : ''));
    announce(message);
    control.focus();
  }
  function api(method, path, body) {
    return fetch(base + path, { method: method, headers: { 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })
      .then(function (res) {
        if (res.status === 204) return null;
        return res.json().then(function (json) {
          if (!res.ok) {
            var details = json.errors ? Object.keys(json.errors).map(function (k) { return k + ': ' + json.errors[k].join(', '); }).join('; ') : '';
            var error = new Error((json.message || '') + (details ? ' (' + details + ')' : ''));
            error.status = res.status;
            throw error;
          }
          return json.data;
        });
      }, function () { var e = new Error(t('err.network')); e.network = true; throw e; });
  }
  /** A session that no longer takes documents (submitted, canceled, expired meanwhile): the page shows it. */
  function closed(e) { return e.status === 400 && /closed|not in Started|canceled/.test(e.message); }
  function plain(e) { return e.network ? e.message : t('err.generic'); }
  /** A refused upload in plain words, next to the control the server names (else the file). */
  function uploadProblem(e, controls, pdf) {
    var control = /back_side_data/.test(e.message) && controls.back ? controls.back : /country/.test(e.message) && controls.country ? controls.country : /\\btype\\b/.test(e.message) && controls.type ? controls.type : controls.front;
    if (/larger than/.test(e.message)) return [control, t('err.tooLarge')];
    if (/_side_data|image|PDF/.test(e.message)) return [control, t(pdf ? 'err.unreadablePdf' : 'err.unreadable')];
    return [control, plain(e)];
  }

  /**
   * The quality gate, before anything is sent: the photo drawn at most GATE_SIDE px on its long side,
   * then its size, blankness, blur and glare measured (src/web/widget-gate.ts). Resolves
   * { verdict, width, height }; a PDF is not measured here (the service reads it after Submit).
   */
  function checkPhoto(file, ctx) {
    if (!/^image\\//.test(file.type)) return Promise.resolve({ verdict: file.type === 'application/pdf' ? 'pdf' : 'unreadable', width: 0, height: 0 });
    return new Promise(function (resolve) {
      var img = new Image();
      var url = URL.createObjectURL(file);
      img.onload = function () {
        var w = img.naturalWidth, h = img.naturalHeight;
        var scale = Math.min(1, GATE_SIDE / Math.max(w, h));
        var c = document.createElement('canvas');
        c.width = Math.max(1, Math.round(w * scale)); c.height = Math.max(1, Math.round(h * scale));
        var g = c.getContext('2d', { willReadFrequently: true });
        g.drawImage(img, 0, 0, c.width, c.height);
        var m = measurePixels(g.getImageData(0, 0, c.width, c.height).data, c.width, c.height, 4);
        URL.revokeObjectURL(url);
        resolve({ verdict: gateVerdict(m, w, h, ctx), width: w, height: h, ctx: ctx });
      };
      img.onerror = function () { URL.revokeObjectURL(url); resolve({ verdict: 'unreadable', width: 0, height: 0 }); };
      img.src = url;
    });
  }
  var REFUSED = { small: true, blank: true, blurred: true, unreadable: true };
  function gateText(r) {
    if (r.verdict === 'small') return t('gate.small', { w: r.width, h: r.height });
    if (r.ctx === 'SELFIE' && (r.verdict === 'ok' || r.verdict === 'blank')) return t(r.verdict === 'ok' ? 'gate.okSelfie' : 'gate.blankSelfie');
    return t('gate.' + r.verdict);
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
      img.onerror = function () { reject(new Error('image')); };
      img.src = URL.createObjectURL(file);
    });
  }

  /**
   * The API asks a country of every document, the selfie's too, which has none: it is sent with the
   * photo ID's (the document it is compared with), uploaded or else expected, or else the first the
   * selfie type allows (it allows any).
   */
  function selfieCountry(type) {
    var photoId = state.documents.filter(function (d) { return d.context_type === 'PHOTO_ID'; })[0];
    var expected = state.contexts.filter(function (c) { return c.context_type === 'PHOTO_ID'; })[0];
    return (photoId && photoId.country) || (expected && expected.expected_country) || type.allowed_countries[0];
  }
  /**
   * What the service read of an uploaded document (the session's documents[].reading: found / not
   * found per field group, never a value), said in plain words beside it. It is read in the
   * background from the upload on: the page reads the session every second for up to READ_WAIT ms,
   * then says it is read after Submit. Nothing that was not read is said to be fine; what was not is
   * said with the retake advice.
   */
  var READ_WAIT = 20000;
  var readings = {};
  function readingText(r, doc) {
    if (r.state === 'after_submit') return { tone: 'hint', text: t('read.selfie') };
    if (r.state !== 'read') return { tone: 'hint', text: t('read.later') };
    var by = { found: [], unclear: [], not_found: [] };
    r.fields.forEach(function (f) { by[f.status].push(t('group.' + f.group)); });
    if (!by.found.length && !by.unclear.length) return { tone: 'warn', text: t('read.none') };
    var zone = r.machine_readable === 'unclear' ? 'read.zoneUnclear' : r.machine_readable === 'not_found' ? 'read.zoneMissing' : null;
    var ok = !zone && !by.unclear.length && !by.not_found.length;
    var parts = r.machine_readable === 'valid' ? [t('read.zoneValid')] : zone ? [t(zone)] : [];
    if (ok && doc.context_type === 'PROOF_OF_ADDRESS') parts.push(t('read.billFound'));
    else {
      if (by.found.length) parts.push(t('read.found', { groups: by.found.join(', ') }));
      if (by.unclear.length) parts.push(t('read.unclear', { groups: by.unclear.join(', ') }));
      if (by.not_found.length) parts.push(t('read.notFound', { groups: by.not_found.join(', ') }));
    }
    if (!ok && !zone) parts.push(t('read.retake'));
    return { tone: ok ? 'ok' : 'warn', text: parts.join(' ') };
  }
  function showReading(doc, p) {
    var known = readings[doc.id];
    function put(r, say) {
      var said = readingText(r, doc);
      p.textContent = said.text;
      p.className = said.tone === 'ok' ? 'check-ok' : said.tone === 'warn' ? 'check-warn' : 'hint';
      // Not read well: Retake is the first choice offered (Continue stays, the run may still read it).
      var base = p.id.replace(/-reading$/, '');
      var next = document.getElementById(base + '-next');
      var again = document.getElementById(base + '-retake');
      if (said.tone === 'warn' && next && again) { next.className = 'secondary'; again.className = ''; next.parentNode.insertBefore(again, next); }
      if (say && document.body.contains(p)) announce(said.text);
    }
    var first = doc.reading;
    if (first && first.state !== 'pending') { readings[doc.id] = { r: first, until: 0 }; put(first, !known); return; }
    if (known && (known.r.state !== 'pending' || Date.now() > known.until)) { put(known.r, false); return; }
    var until = known ? known.until : Date.now() + READ_WAIT;
    readings[doc.id] = { r: first || { state: 'pending' }, until: until };
    (function ask() {
      if (!document.body.contains(p)) return;
      if (Date.now() >= until) { put({ state: 'pending' }, true); return; }
      setTimeout(function () {
        if (!document.body.contains(p)) return;
        api('GET', '/session').then(function (s) {
          var d = s.documents.filter(function (x) { return x.id === doc.id; })[0];
          // Gone or closed meanwhile: the next render says so.
          if (!d || !d.reading) return;
          readings[doc.id] = { r: d.reading, until: until };
          if (d.reading.state === 'pending') ask(); else put(d.reading, true);
        }, ask);
      }, 1000);
    })();
  }
  function fileOf(part) { return part.captured || part.input.files[0]; }

  /**
   * The selfie's live capture, where the browser allows it (a secure page with getUserMedia): a
   * preview of the front camera and a button that takes the photo from it; the file input stays
   * beside it (a browser without a camera API, a refused permission, or a person who prefers it).
   * The camera is turned off once the photo is taken, on Close, and when the page leaves the step.
   */
  var liveStreams = [];
  function canFilm() { return !!(window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia); }
  function stopCameras() {
    liveStreams.forEach(function (s) { s.getTracks().forEach(function (track) { track.stop(); }); });
    liveStreams = [];
    // AWS's component (the Rekognition mode) holds its own camera: unmounting it turns it off.
    liveUnmounts.forEach(function (stop) { stop(); });
    liveUnmounts = [];
  }
  function cameraPanel(part, base) {
    var open = button(t('camera.open'), 'secondary', start, base + '-camera');
    var box = el('div', { class: 'camera', id: base + '-camera-box', hidden: '' });
    var video = el('video', { id: base + '-video', class: 'live', autoplay: '', playsinline: '', 'aria-label': t('camera.preview') });
    video.muted = true;
    var shoot = button(t('camera.take'), '', take, base + '-shoot');
    var close = button(t('camera.close'), 'secondary', function () { stop(); open.focus(); announce(''); }, base + '-camera-close');
    [video, shoot, close].forEach(function (x) { box.appendChild(x); });
    var stream = null;
    var ready = false;
    var wanted = false;
    function stop() {
      if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
      stream = null; video.srcObject = null; box.hidden = true; open.hidden = false;
    }
    function start() {
      clearErrors();
      open.disabled = true;
      navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 960 } }, audio: false }).then(function (s) {
        open.disabled = false;
        // The step was left meanwhile: the camera goes off at once.
        if (!document.body.contains(open)) { s.getTracks().forEach(function (track) { track.stop(); }); return; }
        stream = s; liveStreams.push(s);
        // A photo waits for the first frames (before them the picture is black).
        ready = false;
        video.addEventListener('playing', function () { setTimeout(function () { ready = true; if (wanted) take(); }, 300); }, { once: true });
        video.srcObject = s;
        box.hidden = false; open.hidden = true;
        announce(t('camera.on'));
        shoot.focus();
      }, function (e) {
        open.disabled = false;
        showError(open, t(e && (e.name === 'NotAllowedError' || e.name === 'SecurityError') ? 'camera.denied' : 'camera.failed'));
      });
    }
    function take() {
      if (!stream) return;
      if (!ready || !video.videoWidth) { wanted = true; return; }
      wanted = false;
      var c = document.createElement('canvas');
      c.width = video.videoWidth; c.height = video.videoHeight;
      c.getContext('2d').drawImage(video, 0, 0, c.width, c.height);
      c.toBlob(function (blob) {
        stop();
        if (!blob) { showError(open, t('camera.failed')); return; }
        part.take(new File([blob], t('camera.fileName'), { type: 'image/jpeg' }));
        part.input.focus();
      }, 'image/jpeg', 0.92);
    }
    return { open: open, box: box };
  }
${LIVENESS_JS}
  function documentOf(ctx) { return state.documents.filter(function (d) { return d.context_type === ctx; })[0]; }
  function describe(doc) {
    return typeName(doc.type) + (doc.context_type === 'SELFIE' ? '' : ', ' + countryName(doc.country));
  }
  function flowText(key) {
    var texts = state.appearance && state.appearance[key];
    return texts ? texts[LANG] || texts.en : null;
  }

  // ---- steps: intro and consent, one per document the flow takes, review; then the outcome ----
  function buildSteps() {
    steps = [{ kind: 'intro' }].concat(state.contexts.map(function (c) { return { kind: 'doc', ctx: c }; })).concat([{ kind: 'review' }]);
  }
  /** Where a person arriving (or coming back) starts: the first document still to give, else the review. */
  function firstOpenStep() {
    if (!consented() && state.documents.length === 0) return 0;
    for (var i = 1; i < steps.length - 1; i++) {
      var ctx = steps[i].ctx.context_type;
      if (!documentOf(ctx) && !skipped[ctx]) return i;
    }
    return steps.length - 1;
  }
  function go(index, focus) {
    current = index; dirty = false;
    render(focus);
  }
  function button(text, cls, onClick, id) {
    var b = el('button', { type: 'button', text: text });
    if (cls) b.className = cls;
    if (id) b.id = id;
    b.addEventListener('click', onClick);
    return b;
  }
  function setProgress(n, total) {
    var p = document.getElementById('progress');
    var bar = document.getElementById('progress-bar');
    if (!n) { p.hidden = true; bar.parentNode.hidden = true; return; }
    p.hidden = false; bar.parentNode.hidden = false;
    p.textContent = t('progress', { n: n, total: total });
    bar.style.width = Math.round(100 * n / total) + '%';
  }
  function render(focus) {
    stopCameras();
    // A new view says only its own state: what the last one said is not carried over.
    announce('');
    var box = document.getElementById('step');
    var title = document.getElementById('title');
    box.innerHTML = '';
    if (!state.open) {
      setProgress(0);
      title.textContent = t('outcome.' + state.status_label + '.title');
      box.appendChild(el('p', { text: t('outcome.' + state.status_label) }));
      if (state.appearance && state.appearance.return_url) box.appendChild(el('a', { class: 'button', href: state.appearance.return_url, text: t('return') }));
      document.getElementById('handoff').hidden = true;
      if (state.status_label === 'Submitted') watchOutcome();
    } else {
      setProgress(current + 1, steps.length);
      var s = steps[current];
      if (s.kind === 'intro') renderIntro(box, title);
      else if (s.kind === 'doc') renderDocument(box, title, s.ctx);
      else renderReview(box, title);
    }
    // A new step: the focus goes to its heading, so the reader starts there (not at the foot of the page).
    if (focus) title.focus();
  }
  function requestedNotice() {
    var r = state.requested_again;
    if (!r || !r.contexts.length) return null;
    var box = el('div', { class: 'notice' }, [el('p', { text: t('intro.requested', { docs: r.contexts.map(contextName).join(', ') }) })]);
    if (r.reason) box.appendChild(el('p', { text: t('intro.reason', { reason: r.reason }) }));
    return box;
  }
  /**
   * Beside the consent: whose privacy notice applies, linked (the company and its link are the page's
   * own, from the flow's settings: its header and foot carry them).
   */
  function privacyLine() {
    var notice = document.getElementById('privacy');
    if (!notice) return null;
    var company = document.querySelector('.top .company');
    var link = el('a', { class: 'inline-link', href: notice.getAttribute('href'), target: '_blank', rel: 'noopener noreferrer', text: company ? t('privacy.link') : t('privacy.footer') });
    return el('p', { class: 'hint', id: 'privacy-line' }, [company ? document.createTextNode(t('privacy.lead', { company: company.textContent }) + ' ') : null, link]);
  }
  function renderIntro(box, title) {
    title.textContent = t('intro.title');
    var intro = flowText('intro');
    var list = el('ul', {}, state.contexts.map(function (c) {
      var types = state.document_types.filter(function (d) { return d.context_type === c.context_type; }).map(function (d) { return typeName(d.name); });
      return el('li', { text: contextName(c.context_type) + (c.required ? '' : ' (' + t('optional') + ')') + (c.context_type === 'SELFIE' ? '' : ': ' + types.join(', ')) });
    }));
    var check = el('input', { type: 'checkbox', id: 'consent' });
    check.checked = consented();
    var label = el('label', { class: 'check', for: 'consent' }, [check, el('span', { text: flowText('consent') || t('intro.consent') })]);
    var card = el('div', { class: 'card' }, [requestedNotice(), intro ? el('p', { text: intro }) : null, el('p', { text: t('intro.text') }), list, label, privacyLine()]);
    var start = button(t('btn.start'), '', function () {
      if (!check.checked) { showError(check, t('intro.consentMissing'), label); return; }
      clearErrors();
      consent();
      go(firstOpenStep() || 1, true);
    }, 'start');
    card.appendChild(start);
    box.appendChild(card);
    announce('');
  }
  function renderDocument(box, title, ctx) {
    var type = ctx.context_type;
    var id = 'ctx-' + type;
    title.textContent = contextName(type) + (ctx.required ? '' : ' (' + t('optional') + ')');
    var card = el('section', { class: 'card', id: id, 'aria-labelledby': 'title' });
    box.appendChild(card);
    var asked = state.requested_again && state.requested_again.contexts.indexOf(type) >= 0 ? requestedNotice() : null;
    if (asked) card.appendChild(asked);
    var uploaded = documentOf(type);
    var back = button(t('btn.back'), 'secondary', function () { go(current - 1, true); }, id + '-previous');
    if (uploaded) {
      card.appendChild(el('p', { class: 'done', id: id + '-done', text: t('doc.saved', { doc: describe(uploaded) }) }));
      if (liveSent[uploaded.id]) card.appendChild(el('p', { class: 'hint', id: id + '-live-sent', text: liveSent[uploaded.id] === 'aws' ? t('live.aws.sent') : t('live.sent', { n: liveSent[uploaded.id] }) }));
      var reading = el('p', { class: 'hint', id: id + '-reading', text: t('read.waiting') });
      card.appendChild(reading);
      var retake = button(t('btn.retake'), 'secondary', function () {
        busy = true; retake.disabled = true;
        api('DELETE', '/documents/' + uploaded.id).then(function () { busy = false; return load(); }, function (e) {
          busy = false; retake.disabled = false;
          if (closed(e)) load(); else showError(retake, plain(e));
        });
      }, id + '-retake');
      card.appendChild(button(t('btn.continue'), '', function () { go(current + 1, true); }, id + '-next'));
      card.appendChild(retake);
      card.appendChild(back);
      // After the buttons: a reading already known is said at once, and may put Retake first.
      showReading(uploaded, reading);
      return;
    }
    var hint = el('p', { class: 'hint', id: id + '-hint', text: t('hint.' + type) });
    card.appendChild(hint);
    var types = state.document_types.filter(function (d) { return d.context_type === type; });
    // The selfie of a flow that offers liveness: the guided capture first; the photo after it (or,
    // where liveness is required, only once the camera cannot be used, saying a person reviews it).
    var offer = type === 'SELFIE' ? selfieOffer(livenessMode(), canFilm()) : null;
    var guided = offer !== null && livenessMode() !== 'off';
    var orPhoto = guided ? el('h2', { class: 'or', id: id + '-or', text: t('live.orPhoto') }) : null;
    var reviewNote = guided ? el('p', { class: 'notice', id: id + '-review-note', text: t('live.reviewNote') }) : null;
    var pickerParts = [];
    function showPicker() {
      var now = selfieOffer(livenessMode(), false);
      pickerParts.forEach(function (x) { x.hidden = !now.picker; });
      reviewNote.hidden = !now.reviewNote;
    }
    if (guided) {
      var live = livenessPanel(id, types[0], function () { return selfieCountry(types[0]); }, showPicker);
      [live.box, orPhoto, reviewNote].forEach(function (x) { card.insertBefore(x, hint); });
      reviewNote.hidden = !offer.reviewNote;
      if (!offer.guided) live.noCamera();
    }
    // One type (the selfie): nothing to choose.
    var typeSelect = types.length > 1 ? el('select', { id: id + '-type', name: 'type' }, types.map(function (d) { return el('option', { value: String(d.id), text: typeName(d.name) }); })) : null;
    // A selfie has no issuing country: the person is not asked for one.
    var countrySelect = type === 'SELFIE' ? null : el('select', { id: id + '-country', name: 'country' });
    // A phone's country list has no search of its own: a box above it keeps the names that contain
    // what is typed (accents and case aside) and selects the first.
    var countrySearch = countrySelect && el('input', { id: id + '-country-search', type: 'search', autocomplete: 'off', 'aria-describedby': id + '-country-none' });
    var countryNone = countrySelect && el('p', { id: id + '-country-none', class: 'hint', hidden: '' });
    var pdf = type === 'PROOF_OF_ADDRESS';
    // No "capture" attribute: a phone's chooser then offers the camera (front or rear, the person
    // picks; the selfie's hint says which) and the photos and files already there; with it the camera
    // opens directly and a PDF statement or an earlier photo cannot be chosen.
    function fileSide(side, labelKey) {
      // The browser's own file button speaks the browser's language: the input is hidden to the eye
      // (not to the keyboard or a screen reader) and its label, in the page's language, is the button.
      var input = el('input', { id: id + '-' + side, class: 'file', type: 'file', accept: pdf ? 'image/*,application/pdf' : 'image/*', 'aria-describedby': id + '-hint' });
      var label = el('label', { class: 'pick', for: input.id, text: t(labelKey) });
      var chosen = el('span', { class: 'chosen', id: input.id + '-name', text: t('file.none') });
      var verdict = el('p', { id: input.id + '-check', hidden: '' });
      var preview = el('img', { class: 'preview', alt: '', hidden: '' });
      var again = button(t('btn.retake'), 'secondary', function () { input.value = ''; input.click(); }, input.id + '-again');
      again.hidden = true;
      // captured: a photo taken with the live camera (cameraPanel), where the input's files cannot be set.
      var part = { input: input, label: label, chosen: chosen, verdict: verdict, preview: preview, again: again, result: null, pending: null, captured: null, camera: null };
      input.addEventListener('change', function () { part.captured = null; consider(input.files[0]); });
      part.take = function (file) {
        // Where the browser lets a script set a file input (DataTransfer), the photo goes in it like a picked one.
        try { var dt = new DataTransfer(); dt.items.add(file); input.files = dt.files; } catch (e) { part.captured = file; }
        if (input.files[0] !== file) part.captured = file;
        consider(file);
      };
      function consider(file) {
        clearErrors();
        chosen.textContent = file ? file.name : t('file.none');
        verdict.hidden = true; preview.hidden = true; again.hidden = true; part.result = null;
        input.setAttribute('aria-describedby', id + '-hint');
        if (!file) { part.pending = null; return; }
        dirty = true;
        announce(t('gate.checking'));
        part.pending = checkPhoto(file, type).then(function (r) {
          if (fileOf(part) !== file) return part.result;
          part.result = r;
          var refused = !!REFUSED[r.verdict];
          if (/^image\\//.test(file.type) && r.verdict !== 'unreadable') { preview.src = URL.createObjectURL(file); preview.hidden = false; }
          again.hidden = !refused && r.verdict !== 'glare' && r.verdict !== 'edges';
          if (refused) { showError(input, gateText(r), verdict); return r; }
          verdict.textContent = gateText(r);
          verdict.className = r.verdict === 'glare' || r.verdict === 'edges' ? 'check-warn' : r.verdict === 'pdf' ? 'hint' : 'check-ok';
          verdict.hidden = false;
          input.setAttribute('aria-describedby', id + '-hint ' + verdict.id);
          announce(gateText(r));
          return r;
        });
      }
      if (type === 'SELFIE' && canFilm() && offer.stillCamera) part.camera = cameraPanel(part, input.id);
      return part;
    }
    var front = fileSide('front', type === 'SELFIE' ? 'field.selfie' : 'field.front');
    var rear = type === 'SELFIE' ? null : fileSide('back', 'field.back');
    function chosenType() { return typeSelect ? types.filter(function (d) { return String(d.id) === typeSelect.value; })[0] : types[0]; }
    function country() { return countrySelect ? countrySelect.value : selfieCountry(chosenType()); }
    function twoSided() { return rear !== null && chosenType().double_sided_countries.indexOf(country()) >= 0; }
    function refresh() {
      var d = chosenType();
      if (countrySelect) {
        // The person's choice survives a change of type; before any, the expected country is
        // preselected, else the browser locale's.
        var kept = countrySelect.value || ctx.expected_country || localeCountry();
        var allowed = sortedCountries.filter(function (c) { return d.allowed_countries.indexOf(c[0]) >= 0; });
        var q = fold(countrySearch.value.trim());
        var found = q ? allowed.filter(function (c) { return fold(c[1]).indexOf(q) >= 0; }) : allowed;
        countryNone.hidden = found.length > 0;
        countryNone.textContent = found.length ? '' : t('field.countryNone', { q: countrySearch.value.trim() });
        countrySelect.innerHTML = '';
        (found.length ? found : allowed).forEach(function (c) { countrySelect.appendChild(el('option', { value: c[0], text: c[1] })); });
        if ((found.length ? found : allowed).some(function (c) { return c[0] === kept; })) countrySelect.value = kept;
      }
      if (rear) {
        var both = twoSided();
        front.label.textContent = t(both ? 'field.front' : 'field.single');
        [rear.label, rear.input, rear.chosen].forEach(function (x) { x.hidden = !both; });
        if (!both) { rear.verdict.hidden = true; rear.preview.hidden = true; rear.again.hidden = true; }
      }
    }
    if (typeSelect) { card.appendChild(el('label', { for: typeSelect.id, text: t('field.type') })); card.appendChild(typeSelect); typeSelect.addEventListener('change', refresh); }
    if (countrySelect) {
      [el('label', { for: countrySearch.id, text: t('field.countrySearch') }), countrySearch, countryNone, el('label', { for: countrySelect.id, text: t('field.country') }), countrySelect]
        .forEach(function (x) { card.appendChild(x); });
      countrySelect.addEventListener('change', refresh);
      countrySearch.addEventListener('input', function () { countrySelect.value = ''; refresh(); });
    }
    // The frame guide: the shape to fill (a document, a page, a face) and how; the photo chosen shows in it.
    var shape = type === 'SELFIE' ? 'face' : type === 'PROOF_OF_ADDRESS' ? 'page' : 'card';
    var guide = el('figure', { class: 'guide', id: id + '-guide' }, [el('div', { class: 'frame ' + shape }, [front.preview]), el('figcaption', { text: t('guide.' + type) })]);
    card.appendChild(guide);
    [front].concat(rear ? [rear] : []).forEach(function (p) {
      [p.input, p.label].concat(p.camera ? [p.camera.open, p.camera.box] : []).concat([p.chosen, p.verdict, p.again]).concat(p === front ? [] : [p.preview]).forEach(function (x) { card.appendChild(x); });
    });
    var upload = button(t('btn.upload'), '', function () {
      clearErrors();
      if (!fileOf(front)) { showError(front.input, t('err.chooseFile')); return; }
      var both = twoSided();
      if (both && !fileOf(rear)) { showError(rear.input, t('err.backNeeded')); return; }
      var parts = [front].concat(both ? [rear] : []);
      upload.disabled = true; busy = true;
      Promise.all(parts.map(function (p) { return p.pending; })).then(function (results) {
        // A photo the gate refused is not sent: the person retakes it first.
        for (var i = 0; i < results.length; i++) {
          if (results[i] && REFUSED[results[i].verdict]) {
            upload.disabled = false; busy = false;
            showError(parts[i].input, gateText(results[i]), parts[i].verdict);
            return;
          }
        }
        announce(t('upload.sending'));
        upload.textContent = t('upload.sending'); upload.setAttribute('aria-busy', 'true');
        return Promise.all(parts.map(function (p) { return readFile(fileOf(p)); })).then(function (data) {
          var doc = { context_type: type, type: chosenType().id, country: country(), front_side_data: data[0] };
          if (data[1]) doc.back_side_data = data[1];
          return api('POST', '/documents', { document: doc });
        }).then(function () {
          busy = false;
          return fetchState().then(function () {
            if (!state.open) { render(true); return; }
            // The step stays: it shows what was read (showReading) with Continue and Retake.
            go(current, true);
            if (!document.getElementById('status').textContent) announce(t('upload.done', { doc: contextName(type) }));
          });
        }, function (e) {
          upload.disabled = false; busy = false;
          upload.textContent = t('btn.upload'); upload.removeAttribute('aria-busy');
          if (closed(e)) { load(); return; }
          var problem = uploadProblem(e, { type: typeSelect, country: countrySelect, front: front.input, back: rear && rear.input }, pdf);
          showError(problem[0], problem[1], problem[0] === front.input ? front.verdict : problem[0] === (rear && rear.input) ? rear.verdict : null);
        });
      });
    }, id + '-upload');
    card.appendChild(upload);
    if (guided) {
      pickerParts = [orPhoto, hint, guide, front.input, front.label, front.chosen, upload].concat(front.camera ? [front.camera.open] : []);
      if (!offer.picker) pickerParts.forEach(function (x) { x.hidden = true; });
    }
    if (!ctx.required) card.appendChild(button(t('btn.skip'), 'secondary', function () { skipped[type] = true; remember('skipped', JSON.stringify(skipped)); go(current + 1, true); }, id + '-skip'));
    card.appendChild(back);
    refresh();
  }
  function renderReview(box, title) {
    title.textContent = t('review.title');
    var card = el('div', { class: 'card' }, [el('p', { text: t('review.text') })]);
    var list = el('ul', { class: 'review' });
    state.contexts.forEach(function (c, i) {
      var doc = documentOf(c.context_type);
      var value = doc ? describe(doc) : c.required ? t('review.missing') : t('review.skipped');
      list.appendChild(el('li', { id: 'review-' + c.context_type }, [
        el('span', { class: 'what', text: contextName(c.context_type) }),
        el('span', { class: !doc && c.required ? 'missing' : '', text: value }),
        button(t('btn.change'), 'secondary', function () { go(i + 1, true); }, 'review-' + c.context_type + '-change'),
      ]));
    });
    card.appendChild(list);
    var submit = button(t('btn.submit'), '', function () {
      clearErrors();
      var missing = state.required_contexts.filter(function (c) { return !documentOf(c); });
      if (missing.length) { showError(submit, t('review.needed', { doc: contextName(missing[0]) })); return; }
      // A disabled button takes no tap: the second tap of an impatient person sends nothing.
      busy = true; submit.disabled = true; submit.textContent = t('btn.submitting'); submit.setAttribute('aria-busy', 'true');
      announce(t('btn.submitting'));
      api('PUT', '/submit').then(function (result) {
        // The answer already says the new status: the steps give way to it at once (render polls on).
        busy = false; state.open = false; state.status_label = result.status_label; render(true); announce('');
      }, function (e) {
        busy = false; submit.disabled = false; submit.textContent = t('btn.submit'); submit.removeAttribute('aria-busy');
        if (closed(e)) load(); else showError(submit, plain(e));
      });
    }, 'submit');
    card.appendChild(submit);
    card.appendChild(button(t('btn.back'), 'secondary', function () { go(current - 1, true); }, 'review-previous'));
    box.appendChild(card);
  }

  function signature(s) { return s.status_label + '|' + s.documents.map(function (d) { return d.id; }).sort().join(','); }
  function applyAppearance() {
    var c = state.appearance && state.appearance.primary_color;
    if (c) document.documentElement.style.setProperty('--brand', c);
  }
  /** Reads the session into the page's state (the current step kept; the first step still open at first). */
  function fetchState() {
    return api('GET', '/session').then(function (s) {
      var first = state === null;
      state = s;
      applyAppearance();
      buildSteps();
      if (first) current = firstOpenStep();
      if (current >= steps.length) current = steps.length - 1;
      return first;
    });
  }
  /**
   * While the documents are being checked, the session is read every 2 s; the page changes only when
   * the status does (the focus then goes to the new heading and the status line says the outcome).
   */
  var watching = false;
  function watchOutcome() {
    if (watching) return;
    watching = true;
    setTimeout(function check() {
      var before = state.status_label;
      fetchState().then(function () {
        if (state.status_label === before) { setTimeout(check, 2000); return; }
        watching = false;
        render(true);
        announce(state.open ? '' : t('outcome.' + state.status_label));
      }, function () { setTimeout(check, 2000); });
    }, 2000);
  }
  /** Reads the session and shows the step; after the first time, the focus goes to its heading. */
  function load() {
    return fetchState().then(function (first) {
      dirty = false;
      render(!first);
      if (first && state.open) announce('');
    }, function (e) {
      var box = document.getElementById('step');
      box.innerHTML = '';
      box.appendChild(el('p', { class: 'field-error', text: plain(e) }));
      announce(plain(e));
    });
  }
  /**
   * The desktop view follows the phone: while the QR code is shown, the session is read every few
   * seconds and, when the documents or the status changed elsewhere, the page moves on with them,
   * unless a request runs or a file was chosen here (nothing the person did is thrown away).
   */
  function follow() {
    var handoff = document.getElementById('handoff');
    if (!state || !state.open || busy || dirty || document.hidden || getComputedStyle(handoff).display === 'none') return;
    api('GET', '/session').then(function (s) {
      if (busy || dirty || signature(s) === signature(state)) return;
      var before = state.documents.map(function (d) { return d.context_type; });
      state = s;
      buildSteps();
      var added = s.documents.filter(function (d) { return before.indexOf(d.context_type) < 0; }).map(function (d) { return contextName(d.context_type); });
      if (s.open) current = firstOpenStep();
      render(false);
      if (added.length) {
        var note = t('follow.updated', { doc: added.join(', ') });
        var box = document.getElementById('step');
        box.insertBefore(el('p', { class: 'notice', id: 'follow-note', text: note }), box.firstChild);
        announce(note);
      }
    }, function () {});
  }
  document.addEventListener('DOMContentLoaded', function () {
    document.getElementById('qr').src = base + '/qr';
    document.getElementById('copy').addEventListener('click', function () {
      var link = location.origin + base;
      var copy = navigator.clipboard ? navigator.clipboard.writeText(link) : Promise.reject(new Error('no clipboard'));
      var note = document.getElementById('copy-note');
      function said(key) { note.textContent = t(key); note.hidden = false; announce(t(key)); }
      copy.then(function () { said('copy.done'); }, function () { said('copy.failed'); });
    });
    load();
    setInterval(follow, 4000);
  });
})();
`;
