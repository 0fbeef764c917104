import {
  base64Bytes,
  COUNTDOWN_MS,
  cameraProblem,
  captureDone,
  capturePlan,
  downscaleSize,
  FRAME_SIDE,
  frameDue,
  measuredFps,
  nextQuality,
  promptIndex,
  completeFaceLiveness,
  faceLivenessDisplayText,
  faceLivenessProblem,
  livenessProvider,
  retryAfterSeconds,
  selfieOffer,
} from './liveness-capture';

/**
 * The selfie step's guided liveness capture in the browser (issue 29): it asks the service for a
 * challenge, films the front camera behind an oval guide, shows one prompt at a time with its
 * progress (each said once through the page's live region; an arrow that moves only when the person
 * has not asked for reduced motion), takes the burst of downscaled JPEG frames the challenge's
 * limits allow with their capture times, and uploads them with the nonce and the camera's label and
 * measured rate. Whether it passed is decided in the pipeline, never here: the page only says the
 * video was sent. A refused or absent camera is said plainly, with the hand-off to a phone.
 *
 * A fragment of the widget script (src/web/widget-script.ts embeds it inside its closure and uses
 * its helpers: el, t, announce, button, api, showError…); the decisions are the pure functions of
 * liveness-capture.ts, embedded by their source.
 */
export const LIVENESS_JS = `
  var capturePlan = (${String(capturePlan)});
  var frameDue = (${String(frameDue)});
  var captureDone = (${String(captureDone)});
  var promptIndex = (${String(promptIndex)});
  var downscaleSize = (${String(downscaleSize)});
  var base64Bytes = (${String(base64Bytes)});
  var nextQuality = (${String(nextQuality)});
  var measuredFps = (${String(measuredFps)});
  var cameraProblem = (${String(cameraProblem)});
  var retryAfterSeconds = (${String(retryAfterSeconds)});
  var selfieOffer = (${String(selfieOffer)});
  var livenessProvider = (${String(livenessProvider)});
  var faceLivenessProblem = (${String(faceLivenessProblem)});
  var completeFaceLiveness = (${String(completeFaceLiveness)});
  var faceLivenessDisplayText = (${String(faceLivenessDisplayText)});
  var COUNTDOWN_MS = ${COUNTDOWN_MS};
  var FRAME_SIDE = ${FRAME_SIDE};
  /** The arrow beside a prompt, as the person sees themselves (the preview is mirrored). */
  var ARROWS = { turn_left: '\\u2190', turn_right: '\\u2192', look_up: '\\u2191', look_down: '\\u2193' };
  /** Frames sent with each selfie made from a burst, by document id: its saved step says so. */
  var liveSent = {};
  /** What ends AWS's component when the page leaves the step (stopCameras). */
  var liveUnmounts = [];
  var faceLiveness = null;
  /**
   * The Rekognition mode's bundle (/widget/face-liveness.js, beside this script): fetched only when
   * a challenge says that mode, once per page; resolves its \`mount\`.
   */
  function loadFaceLiveness() {
    if (!faceLiveness) {
      faceLiveness = new Promise(function (resolve, reject) {
        var own = document.querySelector('script[src$="widget/widget.js"]');
        var script = el('script', { src: own.src.replace(/widget\.js$/, 'face-liveness.js'), id: 'face-liveness-script' });
        script.onload = function () { if (window.idvFaceLiveness) resolve(window.idvFaceLiveness); else reject(new Error('no component')); };
        script.onerror = function () { faceLiveness = null; script.parentNode.removeChild(script); reject(new Error('not loaded')); };
        document.head.appendChild(script);
      });
    }
    return faceLiveness;
  }
  /** The flow's liveness requirement (the session's; a session that does not say it is the flows' default). */
  function livenessMode() { return state.liveness || 'optional'; }

  /**
   * The guided capture of the selfie step \`id\`; \`selfieType\` and \`country\` say what the burst's
   * SELFIE document is; \`unavailable(reason)\` is called when the camera cannot be used here (the
   * step then offers what is left: the hand-off and, by the flow, the file input).
   */
  function livenessPanel(id, selfieType, country, unavailable) {
    var box = el('div', { class: 'liveness', id: id + '-live' });
    var intro = el('p', { id: id + '-live-intro', text: t('live.intro') });
    var start = button(t('live.start'), '', begin, id + '-live-start');
    var stage = el('div', { class: 'live-stage', id: id + '-live-stage', hidden: '' });
    var video = el('video', { id: id + '-live-video', class: 'live-video', autoplay: '', playsinline: '', 'aria-label': t('live.preview') });
    video.muted = true;
    var view = el('div', { class: 'live-view' }, [video, el('div', { class: 'live-oval', 'aria-hidden': 'true' })]);
    var progress = el('p', { class: 'live-progress', id: id + '-live-progress' });
    var bar = el('div', { class: 'live-bar' });
    var track = el('div', { class: 'track live-track', 'aria-hidden': 'true' }, [bar]);
    var arrow = el('span', { class: 'live-arrow', 'aria-hidden': 'true' });
    var words = el('span', {});
    var prompt = el('p', { class: 'live-prompt', id: id + '-live-prompt' }, [arrow, words]);
    var cancel = button(t('live.cancel'), 'secondary', function () { stopAll(); reset(); announce(t('live.canceled')); start.focus(); }, id + '-live-cancel');
    [view, progress, track, prompt, cancel].forEach(function (x) { stage.appendChild(x); });
    var handoff = button(t('live.handoff'), 'secondary', offerHandoff, id + '-live-handoff');
    handoff.hidden = true;
    [intro, start, stage, handoff].forEach(function (x) { box.appendChild(x); });
    // The Rekognition mode: AWS's component is mounted here (the separate bundle), then unmounted.
    var awsBox = el('div', { class: 'live-aws', id: id + '-live-aws', role: 'region', 'aria-label': t('live.aws.label'), hidden: '' });
    box.insertBefore(awsBox, handoff);
    var aws = null;
    var stream = null;
    var running = false;
    var timers = [];

    function later(fn, ms) { timers.push(setTimeout(fn, ms)); }
    function stopAll() {
      running = false;
      // Unmounted after the component's own callback has returned (React refuses it during one).
      if (aws) { var mounted = aws; aws = null; setTimeout(function () { mounted.unmount(); }, 0); }
      awsBox.hidden = true;
      timers.forEach(clearTimeout); timers = [];
      if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
      stream = null; video.srcObject = null;
    }
    function reset() {
      busy = false;
      stage.hidden = true; start.hidden = false; start.disabled = false; cancel.hidden = false;
      start.textContent = t('live.retry');
    }
    function say(text) { arrow.textContent = ''; arrow.className = 'live-arrow'; words.textContent = text; }
    /** A failure said next to the start button (which gets the focus and tries again). */
    function fail(message) { stopAll(); reset(); showError(start, message); }
    function cameraGone(kind) {
      stopAll(); reset();
      start.textContent = t('live.start');
      handoff.hidden = false;
      unavailable(kind);
      showError(start, t('live.camera.' + kind));
    }
    function offerHandoff() {
      var aside = document.getElementById('handoff');
      aside.className = 'offered';
      var title = document.getElementById('handoff-title');
      title.scrollIntoView();
      title.focus();
    }

    function begin() {
      clearErrors();
      if (!canFilm()) { cameraGone('absent'); return; }
      busy = true; start.disabled = true;
      announce(t('live.preparing'));
      api('POST', '/liveness/challenge').then(function (challenge) {
        if (livenessProvider(challenge) === 'rekognition') openAws(challenge); else openCamera(challenge);
      }, function (e) {
        if (closed(e)) { busy = false; load(); return; }
        var wait = retryAfterSeconds(e.message || '');
        if (wait !== null) { fail(t('live.tooMany', { s: wait })); return; }
        if (/for this verification/.test(e.message || '')) { fail(t('live.exhausted')); handoff.hidden = true; unavailable('exhausted'); return; }
        fail(plain(e));
      });
    }
    function openCamera(challenge) {
      navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 30 } }, audio: false }).then(function (s) {
        // The step was left meanwhile: the camera goes off at once.
        if (!document.body.contains(box)) { s.getTracks().forEach(function (track) { track.stop(); }); busy = false; return; }
        stream = s; liveStreams.push(s);
        start.hidden = true; stage.hidden = false; cancel.hidden = false;
        progress.textContent = ''; bar.style.width = '0';
        video.addEventListener('playing', function () { countdown(challenge); }, { once: true });
        video.srcObject = s;
        say(t('live.ready', { s: Math.round(COUNTDOWN_MS / 1000) }));
        announce(t('live.ready', { s: Math.round(COUNTDOWN_MS / 1000) }));
      }, function (e) { cameraGone(cameraProblem(e && e.name)); });
    }
    /** The lead-in: the seconds left, shown (said once, at its start); then the burst. */
    function countdown(challenge) {
      running = true;
      for (var k = 1; k < COUNTDOWN_MS / 1000; k++) {
        (function (left) { later(function () { say(t('live.ready', { s: left })); }, COUNTDOWN_MS - left * 1000); })(Math.round(COUNTDOWN_MS / 1000) - k);
      }
      later(function () { record(challenge); }, COUNTDOWN_MS);
    }

    function record(challenge) {
      if (!running || !document.body.contains(box)) { stopAll(); busy = false; return; }
      var steps = challenge.steps;
      var plan = capturePlan(steps, challenge.frames, FRAME_SIDE);
      var size = downscaleSize(video.videoWidth, video.videoHeight, plan.side);
      var canvas = document.createElement('canvas');
      canvas.width = size.width; canvas.height = size.height;
      var g = canvas.getContext('2d');
      var frames = [];
      var seen = [];
      var total = 0;
      var quality = 0.8;
      var t0 = null;
      var shown = -2;
      var label = stream && stream.getVideoTracks()[0] ? stream.getVideoTracks()[0].label : '';
      function show(i) {
        if (i === shown) return;
        shown = i;
        if (i < 0) { say(t('live.look')); return; }
        if (i >= steps.length) { say(t('live.hold')); bar.style.width = '100%'; return; }
        var action = steps[i].action;
        words.textContent = t('live.action.' + action);
        arrow.textContent = ARROWS[action] || '';
        arrow.className = 'live-arrow ' + action;
        progress.textContent = t('live.step', { n: i + 1, total: steps.length });
        bar.style.width = Math.round(100 * (i + 1) / steps.length) + '%';
        announce(t('live.action.' + action));
      }
      /** The canvas as JPEG within the frame budget (the quality follows the weight); null when no quality fits. */
      function encode() {
        for (var tries = 0; tries < 4; tries++) {
          var url = canvas.toDataURL('image/jpeg', quality);
          var data = url.slice(url.indexOf(',') + 1);
          var bytes = base64Bytes(data);
          var next = nextQuality(quality, bytes, plan.frameBudget);
          var fits = bytes <= plan.frameBudget || (bytes <= challenge.frames.max_frame_bytes && total + bytes <= challenge.frames.max_total_bytes - (plan.maxFrames - frames.length - 1) * plan.frameBudget);
          if (fits) { quality = next; total += bytes; return data; }
          if (next === quality) return null;
          quality = next;
        }
        return null;
      }
      function onFrame() {
        if (!running) return;
        if (!document.body.contains(box)) { stopAll(); busy = false; return; }
        var now = performance.now();
        seen.push(now);
        if (t0 === null) t0 = now;
        var elapsed = now - t0;
        show(promptIndex(steps, elapsed));
        if (frameDue(elapsed, frames.length, plan)) {
          g.drawImage(video, 0, 0, canvas.width, canvas.height);
          var data = encode();
          if (data !== null) frames.push({ t: Math.round(elapsed), data: data });
        }
        if (captureDone(elapsed, frames.length, plan)) { finish(); return; }
        if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(onFrame);
        else later(onFrame, plan.intervalMs / 3);
      }
      function finish() {
        var fps = measuredFps(seen);
        stopAll();
        if (frames.length < plan.minFrames) { fail(t('live.fewFrames')); return; }
        send(challenge, frames, label, fps);
      }
      onFrame();
    }

    function send(challenge, frames, label, fps) {
      stage.hidden = false; cancel.hidden = true;
      say(t('live.sending'));
      announce(t('live.sending'));
      var body = { nonce: challenge.nonce, document: { type: selfieType.id, country: country() }, frames: frames, signals: { reported_fps: fps } };
      if (label) body.signals.device_label = label.slice(0, 200);
      api('POST', '/liveness/frames', body).then(function (made) {
        liveSent[made.id] = made.frames;
        busy = false;
        return fetchState().then(function () {
          if (!state.open) { render(true); return; }
          go(current, true);
          announce(t('live.sent', { n: made.frames }));
        });
      }, function (e) {
        if (closed(e) || /already exists/.test(e.message || '')) { busy = false; load(); return; }
        fail(/liveness challenge/.test(e.message || '') ? t('live.expired') : e.network ? e.message : t('live.sendFailed'));
      });
    }
    /**
     * The Rekognition mode: the separate bundle is fetched (once per page), AWS's component mounted
     * with the session the service created; when it has filmed, the service is asked for the result
     * (it reads it from Rekognition) and files the SELFIE. The page says only that the video was
     * sent: no pass is decided or shown here. A camera, AWS or bundle failure is said plainly with
     * the hand-off; Cancel in the component is Stop.
     */
    function openAws(challenge) {
      if (!challenge.identity_pool_id || !challenge.region) { fail(t('live.aws.unavailable')); handoff.hidden = false; return; }
      intro.textContent = t('live.aws.intro');
      loadFaceLiveness().then(function (lib) {
        if (!document.body.contains(box)) { busy = false; return; }
        start.hidden = true; awsBox.hidden = false; awsBox.innerHTML = '';
        announce(t('live.aws.ready'));
        aws = lib.mount(awsBox, {
          sessionId: challenge.session_id,
          region: challenge.region,
          identityPoolId: challenge.identity_pool_id,
          displayText: faceLivenessDisplayText(T),
          onComplete: function () { stopAll(); complete(challenge); },
          onError: function (state) { awsFailed(faceLivenessProblem(state)); },
          onCancel: function () { stopAll(); reset(); announce(t('live.canceled')); start.focus(); },
        });
        liveUnmounts.push(stopAll);
      }, function () { awsFailed('unavailable'); });
    }
    function awsFailed(problem) {
      if (problem === 'denied' || problem === 'absent' || problem === 'failed') { cameraGone(problem); return; }
      fail(t('live.aws.' + problem));
      handoff.hidden = false;
    }
    function complete(challenge) {
      stage.hidden = false; cancel.hidden = true; progress.textContent = ''; bar.style.width = '0';
      [view, track].forEach(function (x) { x.hidden = true; });
      say(t('live.sending'));
      announce(t('live.sending'));
      completeFaceLiveness(api, challenge.session_id, { type: selfieType.id, country: country() }).then(function (made) {
        liveSent[made.id] = 'aws';
        busy = false;
        return fetchState().then(function () {
          if (!state.open) { render(true); return; }
          go(current, true);
          announce(t('live.aws.sent'));
        });
      }, function (e) {
        [view, track].forEach(function (x) { x.hidden = false; });
        if (closed(e) || /already exists/.test(e.message || '')) { busy = false; load(); return; }
        fail(e.network ? e.message : t('live.aws.sendFailed'));
        handoff.hidden = false;
      });
    }
    /** No camera API here (an old browser, a page not served securely): said at once, with the hand-off. */
    function noCamera() { start.hidden = true; intro.textContent = t('live.camera.absent'); handoff.hidden = false; }
    return { box: box, noCamera: noCamera };
  }
`;

/**
 * The capture's styles, appended to the widget's stylesheet: the preview mirrored (a person moves
 * as in a mirror) with the oval cut out of a darkened picture; the prompt large; the arrow nudges
 * only for a person who has not asked the system for reduced motion.
 */
export const LIVENESS_CSS = `.liveness{margin:.5rem 0 1rem}
.live-view{position:relative;width:100%;max-width:20rem;aspect-ratio:3/4;overflow:hidden;border-radius:.6rem;background:#1b1d21;margin:.5rem 0}
.live-video{position:absolute;inset:0;width:100%;height:100%;object-fit:cover;transform:scaleX(-1)}
.live-oval{position:absolute;left:50%;top:47%;width:66%;height:70%;transform:translate(-50%,-50%);border-radius:50%;border:4px solid #fff;box-shadow:0 0 0 100vmax rgba(0,0,0,.55)}
.live-progress{margin:.5rem 0 .25rem;color:#41464f;font-weight:600;min-height:1.45em}
.live-track{max-width:20rem}.live-bar{height:100%;width:0;background:var(--brand)}
.live-prompt{font-size:1.35rem;font-weight:700;margin:.6rem 0;min-height:2.9em}
.live-arrow{display:inline-block;margin-right:.5rem}
.live-aws{margin:.5rem 0;max-width:40rem}
.or{font-size:1.05rem;margin:1.25rem 0 .25rem;padding-top:1rem;border-top:1px solid #dde2ea}
#handoff.offered{display:block;background:#fff;padding:1rem;border-radius:.5rem;margin:1rem 0;box-shadow:0 1px 3px #0002}
#handoff-title:focus{outline:none}#handoff-title:focus-visible{outline:3px solid #0b3d91;outline-offset:2px}
@media (prefers-reduced-motion:no-preference){
.live-arrow.turn_left{animation:live-left .8s ease-in-out infinite alternate}
.live-arrow.turn_right{animation:live-right .8s ease-in-out infinite alternate}
.live-arrow.look_up{animation:live-up .8s ease-in-out infinite alternate}
.live-arrow.look_down{animation:live-down .8s ease-in-out infinite alternate}
}
@keyframes live-left{to{transform:translateX(-.45rem)}}
@keyframes live-right{to{transform:translateX(.45rem)}}
@keyframes live-up{to{transform:translateY(-.35rem)}}
@keyframes live-down{to{transform:translateY(.35rem)}}
`;
