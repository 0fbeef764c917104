import { readFileSync } from 'node:fs';
import { SEQUENCES } from '../../../src/app/liveness-challenge';
import { verifyLiveness } from '../../../src/domain/liveness/verify';
import { drawChallengeWith, rng } from './performance';
const cache = JSON.parse(readFileSync(process.argv[2] as string, 'utf8'));
const SEED = Number(process.argv[3] ?? 5);
let judged = 0, passed = 0, ownJudged = 0, ownPassed = 0;
for (const [key, o] of Object.entries<any>(cache)) {
  if (!key.startsWith('replay:') && !key.startsWith('genuine:')) continue;
  const n = Number(key.split(':')[2]);
  const self = verifyLiveness(o.challenge, o.observed, { now: '2026-01-01T10:00:10.000Z', portraitDescriptor: o.portrait });
  ownJudged++; if (self.passed) ownPassed++; else console.log('OWN REFUSED', key, self.reasons.join(), JSON.stringify(Object.fromEntries(Object.entries(self.measures).filter(([k]) => /onset|stray/.test(k)))), o.challenge.steps.map((s: any) => `${s.action}@${s.windowMs}`).join(' '));
  if (!key.startsWith('replay:')) continue;
  const own = SEQUENCES.findIndex((q) => q.join() === o.challenge.steps.map((st: any) => st.action).join());
  const draws = rng(SEED * 7_919 + n);
  SEQUENCES.forEach((_, k) => {
    if (k === own) return;
    const c = drawChallengeWith(draws, `other-${n}-${k}`, k);
    const v = verifyLiveness(c, o.observed, { now: '2026-01-01T10:00:10.000Z', portraitDescriptor: o.portrait });
    judged++;
    if (v.passed) {
      passed++;
      console.log(key, 'own', o.challenge.steps.map((s: any) => `${s.action}@${s.windowMs}`).join(' '), '\n  drawn', c.steps.map((s) => `${s.action}@${s.windowMs}`).join(' '));
      const t0 = o.observed[0].t;
      console.log('  ' + o.observed.map((f: any) => `${f.t - t0}:${f.eyeOpen?.toFixed(2)}/${f.pitch?.toFixed(0)}/${f.yaw?.toFixed(0)}/${f.mouthOpen?.toFixed(2)}`).join(' '));
    }
  });
}
console.log({ judged, passed, ownJudged, ownPassed });
