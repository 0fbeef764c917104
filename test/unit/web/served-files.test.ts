import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedTexts, writeServedFiles } from '../../../lib/served-files';
import { route } from '../../../src/http/routes';
import { FILES } from '../../../src/web/asset-texts';
import { serveFilesFrom, servedFile, servedName } from '../../../src/web/served-files';
import { fieldLabel, isValueComparison } from '../../../src/web/console-fields';
import labels from '../../../src/web/locales/console.en.json';
import { gateVerdict, measurePixels } from '../../../src/web/widget-gate';

const ROOT = join(__dirname, '..', '..', '..');
const generated = () => generatedTexts('src/web/asset-texts.ts');

/**
 * The widget script cut around the functions it embeds with `String(fn)`: the two quality-gate
 * functions, and the liveness capture's (from capturePlan to the last; test/unit/web/liveness-capture.test.ts
 * runs those as served).
 */
function cut(script: string): { text: string[]; measure: string; verdict: string } {
  const m = /^([\s\S]*\n  var measurePixels = \()([\s\S]*)(\);\n  var gateVerdict = \()([\s\S]*)(\);\n  var COUNTRIES = [\s\S]*\n  var capturePlan = \()[\s\S]*(\);\n  var COUNTDOWN_MS = [\s\S]*)$/.exec(script);
  if (!m) throw new Error('the script no longer embeds the gate and liveness functions where expected');
  return { text: [m[1]!, m[3]!, m[5]!, m[6]!], measure: m[2]!, verdict: m[4]! };
}

/** The console script cut around the two field functions it embeds with `String(fn)`. */
function cutConsole(script: string): { text: string[]; label: string; compares: string } {
  const m = /^([\s\S]*\n  var fieldLabel = \()([\s\S]*)(\);\n  var isValueComparison = \()([\s\S]*)(\);\n  function labelOf[\s\S]*)$/.exec(script);
  if (!m) throw new Error('the console script no longer embeds the field functions where expected');
  return { text: [m[1]!, m[3]!, m[5]!], label: m[2]!, compares: m[4]! };
}

describe('the widget\'s and the console\'s scripts and stylesheets, generated from their source', () => {
  it('are the module\'s texts byte for byte: the stylesheets whole', () => {
    for (const name of ['widget.css', 'console.css']) expect([name, generated()[name] === FILES[name]]).toEqual([name, true]);
    expect(Object.keys(generated()).sort()).toEqual(Object.keys(FILES).sort());
  });

  it('are the module\'s console script byte for byte but for the field functions\' source, which answer the same', () => {
    const served = cutConsole(generated()['console.js'] ?? '');
    const source = cutConsole(FILES['console.js'] ?? '');
    expect(served.text).toEqual(source.text);
    const label = new Function(`return (${served.label})`)() as typeof fieldLabel;
    const compares = new Function(`return (${served.compares})`)() as typeof isValueComparison;
    for (const key of ['person.last_name', 'consistency.person.surname', 'document.security_thread']) expect(label(key, labels)).toBe(fieldLabel(key, labels));
    for (const rule of ['consistency.sources', 'consistency.document.number', 'person.minimum_age', 'address.full']) expect(compares(rule)).toBe(isValueComparison(rule));
  });

  it('are the module\'s widget script byte for byte but for the gate functions\' source, which compute the same', () => {
    const served = cut(generated()['widget.js'] ?? '');
    const source = cut(FILES['widget.js'] ?? '');
    expect(served.text).toEqual(source.text);
    const measure = new Function(`return (${served.measure})`)() as typeof measurePixels;
    const verdict = new Function(`return (${served.verdict})`)() as typeof gateVerdict;
    // A picture: a plain grey border around a sharp checkerboard with a bright patch.
    const [w, h] = [96, 64];
    const pixels = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const inside = x > 10 && x < 85 && y > 8 && y < 55;
        const v = !inside ? 120 : x > 60 && y > 40 ? 255 : (x >> 2) % 2 === (y >> 2) % 2 ? 20 : 230;
        pixels.set([v, v, v, 255], (y * w + x) * 4);
      }
    }
    expect(measure(pixels, w, h, 4)).toEqual(measurePixels(pixels, w, h, 4));
    const m = measurePixels(pixels, w, h, 4);
    for (const [width, height, context] of [[96, 64, 'PHOTO_ID'], [1200, 900, 'PHOTO_ID'], [1200, 900, 'SELFIE'], [1200, 900, 'PROOF_OF_ADDRESS']] as const) {
      expect(verdict(m, width, height, context)).toBe(gateVerdict(m, width, height, context));
    }
  });
});

describe('files a route serves as they are', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'idv-served-'));
    writeServedFiles([...route.getWidgetAsset.needs.files, ...route.getWidgetPage.needs.files], dir);
    serveFilesFrom(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are written under their served names: generated texts, repository files and package files', () => {
    expect(readdirSync(dir).sort()).toEqual(['console.css', 'console.js', 'face-liveness.js', 'widget.css', 'widget.de.json', 'widget.en.json', 'widget.es.json', 'widget.fr.json', 'widget.js']);
    expect(readFileSync(join(dir, 'widget.fr.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'src', 'web', 'locales', 'widget.fr.json'), 'utf8'));
    expect(route.getConsolePdfjs.needs.files.map(servedName)).toEqual(['pdf.min.mjs', 'pdf.worker.min.mjs']);
  });

  it('are served only under a name their route lists, with the Content-Type of its extension', () => {
    expect(servedFile(route.getWidgetAsset, 'widget.css')).toEqual({ contentType: 'text/css; charset=utf-8', body: FILES['widget.css'] });
    expect(servedFile(route.getWidgetAsset, 'console.js')?.contentType).toBe('text/javascript; charset=utf-8');
    // The Rekognition mode's capture: its browser bundle, as the page fetches it in that mode.
    const bundle = servedFile(route.getWidgetAsset, 'face-liveness.js');
    expect({ contentType: bundle?.contentType, bundle: bundle?.body === generatedTexts('src/web/face-liveness.ts')['face-liveness.js'] }).toEqual({ contentType: 'text/javascript; charset=utf-8', bundle: true });
    // On disk beside them, but not the asset route's.
    expect(servedFile(route.getWidgetAsset, 'widget.en.json')).toBeUndefined();
    for (const name of ['nope.js', '../widget.js', 'constructor', '']) expect([name, servedFile(route.getWidgetAsset, name)]).toEqual([name, undefined]);
  });

  it('refuses two entries served under one name', () => {
    expect(() => writeServedFiles(['src/web/locales/widget.en.json', 'src/web/asset-texts.ts#widget.en.json'], join(dir, 'twice'))).toThrow('two files are served as widget.en.json');
    expect(() => writeServedFiles(['src/web/asset-texts.ts#nope.js'], join(dir, 'unknown'))).toThrow('src/web/asset-texts.ts has no file nope.js');
  });
});
