/**
 * The widget's guided liveness capture, its pure part: when to take a frame, how small, at what
 * JPEG quality, which prompt shows when, what a refused camera means and what the selfie step
 * offers. Like the quality gate (widget-gate.ts) these are plain functions with no outside
 * reference and no syntax that needs a helper: the page script embeds their source as it is
 * (`String(fn)`, src/web/liveness-panel.ts) and the unit tests run the very same code. The limits
 * are never the widget's own: each capture reads them from the challenge the service issued
 * (POST /v/{token}/liveness/challenge `frames`).
 */

/** The burst's limits as the challenge gives them. */
export interface FrameLimits {
  min_fps: number;
  min_frames: number;
  max_frames: number;
  max_duration_ms: number;
  max_frame_bytes: number;
  max_frame_side: number;
  max_total_bytes: number;
}

/** One prompt of the challenge: the action and its window, ms after the first frame. */
export interface PromptStep {
  action: string;
  start_ms: number;
  end_ms: number;
}

/** How one burst is filmed. */
export interface CapturePlan {
  /** From the first frame to the last, ms: the last window and a little after, within the limit. */
  durationMs: number;
  /** One frame per slot of this length (ms). */
  intervalMs: number;
  minFrames: number;
  maxFrames: number;
  /** Bytes one frame may take: within the per-frame limit, and the total shared out over the most frames. */
  frameBudget: number;
  /** Long side of a frame, pixels. */
  side: number;
}

/**
 * The lead-in between the camera's first picture and the first frame filmed: time to put the face
 * in the oval (the page counts it down). The browser test's fake camera is built with it.
 */
export const COUNTDOWN_MS = 3000;

/**
 * Long side of the frames sent (pixels). The face models work on a face of 100–200 px; at 480 px a
 * face filling the oval is about that, and a JPEG frame weighs 15–40 KB (60 of them fit the total).
 */
export const FRAME_SIDE = 480;

/**
 * The plan of a burst for a challenge: filmed until 300 ms after the last window closes (the last
 * action may end late), at most `max_duration_ms`; as many frames as allowed, evenly spread, but
 * no faster than 15 a second (a phone's camera gives 15–30, and frames closer than a camera's are
 * copies); never fewer than `min_fps` a second (the slot shortens the burst rather than the rate).
 */
export function capturePlan(steps: PromptStep[], limits: FrameLimits, side: number): CapturePlan {
  let last = 0;
  for (const s of steps) last = Math.max(last, s.end_ms);
  let durationMs = Math.min(limits.max_duration_ms, last + 300);
  let intervalMs = Math.max(1000 / 15, durationMs / Math.max(1, limits.max_frames - 1));
  if (intervalMs > 1000 / limits.min_fps) {
    intervalMs = 1000 / limits.min_fps;
    durationMs = Math.floor((limits.max_frames - 1) * intervalMs);
  }
  return {
    durationMs,
    intervalMs,
    minFrames: limits.min_frames,
    maxFrames: limits.max_frames,
    frameBudget: Math.min(limits.max_frame_bytes, Math.floor(limits.max_total_bytes / limits.max_frames)),
    side: Math.min(side, limits.max_frame_side),
  };
}

/**
 * Whether the camera picture that arrived `elapsedMs` after the first frame is taken, `taken`
 * frames in: frame k belongs to the slot starting at k x intervalMs and is the first picture from
 * half a slot before it. The rate then averages one frame a slot whatever the camera's own rate,
 * two frames are never one picture, and the count never passes `maxFrames`.
 */
export function frameDue(elapsedMs: number, taken: number, plan: CapturePlan): boolean {
  if (taken >= plan.maxFrames || elapsedMs > plan.durationMs) return false;
  return taken === 0 || elapsedMs >= (taken - 0.5) * plan.intervalMs;
}

/** Whether the burst is over at `elapsedMs` with `taken` frames. */
export function captureDone(elapsedMs: number, taken: number, plan: CapturePlan): boolean {
  return taken >= plan.maxFrames || elapsedMs >= plan.durationMs;
}

/**
 * Which prompt shows `elapsedMs` after the first frame: -1 before the first window opens (look
 * at the screen), the step whose window has opened (until the next one opens), or `steps.length`
 * once the last window has closed. A prompt shows from the moment its window opens: a person
 * reacts 200–600 ms later, well inside the window, never before it.
 */
export function promptIndex(steps: PromptStep[], elapsedMs: number): number {
  const last = steps[steps.length - 1];
  if (!last) return 0;
  if (elapsedMs >= last.end_ms) return steps.length;
  let index = -1;
  for (let i = 0; i < steps.length; i++) if (elapsedMs >= (steps[i] as PromptStep).start_ms) index = i;
  return index;
}

/** A frame's size: the camera's picture scaled down (never up) to `side` pixels on its long side. */
export function downscaleSize(width: number, height: number, side: number): { width: number; height: number } {
  const scale = Math.min(1, side / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The bytes of base64 `data` (no `data:` prefix). */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/**
 * The JPEG quality for the next encoding after one of `bytes` at `quality`: lowered in proportion
 * when the frame passed its budget (a dark room's noise weighs more), raised back slowly when it
 * came well under; between 0.35 and 0.85.
 */
export function nextQuality(quality: number, bytes: number, budget: number): number {
  let q = quality;
  if (bytes > budget) q = quality * (budget / bytes) * 0.9;
  else if (bytes < budget * 0.5) q = quality + 0.05;
  return Math.round(Math.min(0.85, Math.max(0.35, q)) * 100) / 100;
}

/** Frames a second over capture times in ms (0 for fewer than two). */
export function measuredFps(times: number[]): number {
  const first = times[0];
  const last = times[times.length - 1];
  if (times.length < 2 || first === undefined || last === undefined || last <= first) return 0;
  return Math.round(((times.length - 1) * 10000) / (last - first)) / 10;
}

/**
 * What a failed getUserMedia means to the person: `denied` (they or the browser refused this page
 * the camera), `absent` (no camera, or none that films: a desktop without one), `busy` (another app
 * holds it) or `failed`.
 */
export function cameraProblem(errorName: string | undefined): 'denied' | 'absent' | 'busy' | 'failed' {
  if (errorName === 'NotAllowedError' || errorName === 'SecurityError' || errorName === 'PermissionDeniedError') return 'denied';
  if (errorName === 'NotFoundError' || errorName === 'DevicesNotFoundError' || errorName === 'OverconstrainedError') return 'absent';
  if (errorName === 'NotReadableError' || errorName === 'TrackStartError') return 'busy';
  return 'failed';
}

/** The seconds to wait a refused challenge names ("try again in 42 seconds"), or null. */
export function retryAfterSeconds(message: string): number | null {
  const found = /try again in (\d+) seconds?/i.exec(message);
  return found ? Number(found[1]) : null;
}

/**
 * What the selfie step offers, by the flow's liveness requirement (the session's `liveness`; a
 * session that does not say is treated as the flows' default, optional) and whether the camera
 * can be used here (`camera`: false without the camera API or after a refusal or failure):
 * - `guided`: the guided capture (the only way to a liveness pass);
 * - `picker`: the file input (and, outside a required flow, the single-photo camera);
 * - `reviewNote`: beside the picker, that a photo is reviewed by a person (required flow);
 * - `handoff`: the offer to continue on a phone (the camera cannot be used here).
 * In a flow that requires liveness the picker is offered only once the camera cannot be used, and
 * then says that a person reviews the photo: a file never leads to a pass.
 */
export function selfieOffer(
  liveness: string | undefined,
  camera: boolean,
): { guided: boolean; picker: boolean; stillCamera: boolean; reviewNote: boolean; handoff: boolean } {
  if (liveness === 'off') return { guided: false, picker: true, stillCamera: camera, reviewNote: false, handoff: false };
  if (liveness === 'required') return { guided: camera, picker: !camera, stillCamera: false, reviewNote: !camera, handoff: !camera };
  return { guided: camera, picker: true, stillCamera: camera, reviewNote: false, handoff: !camera };
}

/**
 * Who films the selfie, by the challenge the service issued: `rekognition` when it answers with an
 * Amazon Rekognition Face Liveness session (a flow whose `checks.liveness_provider` is
 * `rekognition`: AWS's component films, from the separate bundle), else `challenge` (the guided
 * capture above). The service decides; the page only follows the answer.
 */
export function livenessProvider(challenge: unknown): 'rekognition' | 'challenge' {
  const answer = challenge as { provider?: unknown; session_id?: unknown } | null | undefined;
  return answer && answer.provider === 'rekognition' && typeof answer.session_id === 'string' && answer.session_id !== '' ? 'rekognition' : 'challenge';
}

/**
 * What an error state of AWS's component means to the person: the camera's problems as the guided
 * capture names them (`denied`, `absent`, `failed`: with the hand-off), `service` (Rekognition or
 * Cognito could not be reached, or the component broke), `landscape` (a phone held sideways) or
 * `retry` (the check ran but did not finish: too slow, moved closer too soon, two faces).
 */
export function faceLivenessProblem(state: string | undefined): 'denied' | 'absent' | 'failed' | 'service' | 'landscape' | 'retry' {
  if (state === 'CAMERA_ACCESS_ERROR') return 'denied';
  if (state === 'DEFAULT_CAMERA_NOT_FOUND_ERROR') return 'absent';
  if (state === 'CAMERA_FRAMERATE_ERROR') return 'failed';
  if (state === 'MOBILE_LANDSCAPE_ERROR') return 'landscape';
  if (state === 'TIMEOUT' || state === 'FRESHNESS_TIMEOUT' || state === 'FACE_DISTANCE_ERROR' || state === 'MULTIPLE_FACES_ERROR') return 'retry';
  return 'service';
}

/**
 * The capture of a Rekognition session finished: the service is asked for its result
 * (`POST /v/{token}/liveness/session/{sessionId}`), which it reads from Rekognition itself and files
 * as the SELFIE `document`; the page learns only that it was filed, never whether it passed.
 * `api(method, path, body)` is the widget's request helper.
 */
export function completeFaceLiveness<T>(
  api: (method: string, path: string, body: unknown) => Promise<T>,
  sessionId: string,
  document: { type: number; country: string },
): Promise<T> {
  return api('POST', '/liveness/session/' + encodeURIComponent(sessionId), { document: document });
}

/** The texts AWS's component shows, in the page's language: the locale's `live.aws.text.<displayText key>` entries. */
export function faceLivenessDisplayText(texts: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const prefix = 'live.aws.text.';
  for (const key of Object.keys(texts)) if (key.indexOf(prefix) === 0) out[key.slice(prefix.length)] = texts[key] as string;
  return out;
}
