import * as v from 'valibot';
import { allIso3, isIso3 } from './countries';
import { DEFAULT_MAX_AGE_DAYS, DEFAULT_SCREENING_THRESHOLD } from './screening/defaults';

export const CONTEXT_TYPES = ['PHOTO_ID', 'PROOF_OF_ADDRESS', 'SELFIE'] as const;
export type ContextType = (typeof CONTEXT_TYPES)[number];

export const CONTEXT_LABELS: Record<ContextType, string> = {
  PHOTO_ID: 'Photo ID',
  PROOF_OF_ADDRESS: 'Proof of Address',
  SELFIE: 'Selfie',
};

/** Extractors a flow can choose in a deployed stack: Amazon Textract/Rekognition or the offline engines. */
export const EXTRACTOR_NAMES = ['aws', 'offline'] as const;
export type ExtractorName = (typeof EXTRACTOR_NAMES)[number];

export type FlowChecks = v.InferOutput<FlowsFileSchemas['FlowChecksConfig']>;
/**
 * Active liveness (docs/explanation/liveness.md): `required`, a selfie not taken through a passed challenge
 * sends the verification to review, never to approval; `optional`, a challenge's selfie is judged
 * and a still one decides nothing; `off`, not judged.
 */
export const LIVENESS_REQUIREMENTS = ['off', 'optional', 'required'] as const;
export type LivenessRequirement = (typeof LIVENESS_REQUIREMENTS)[number];
/** Who judges a flow's liveness: the server's own challenge, or Amazon Rekognition Face Liveness (deployed). */
export const LIVENESS_PROVIDERS = ['challenge', 'rekognition'] as const;
export type LivenessProvider = (typeof LIVENESS_PROVIDERS)[number];
const CHECKS_UNLESS_SET = { duplicate_document: true, cross_source: true, duplicate_face: true, duplicate_face_max_distance: 0.45, selfie_liveness: true, liveness: 'optional' as LivenessRequirement, liveness_provider: 'challenge' as LivenessProvider };
/** The checks of a flow stored before flows carried any (and of a flow that sets none). */
export const DEFAULT_CHECKS: FlowChecks = CHECKS_UNLESS_SET;
/** The languages the end-user widget speaks (src/web/locales): a flow's texts are given in these. */
export const WIDGET_LANGUAGES = ['en', 'es', 'fr', 'de'] as const;
export type WidgetLanguage = (typeof WIDGET_LANGUAGES)[number];

/** Relative luminance of a #rrggbb colour (WCAG 2.2). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export type WidgetConfig = v.InferOutput<FlowsFileSchemas['WidgetConfig']>;

/** The checked-in configuration file (config/flows.json), as its schema reads it. */
export type FlowsFile = v.InferOutput<FlowsFileSchemas['FlowsFileSchema']>;

/**
 * The schemas of config/flows.json, built by the one caller that reads the file (resolveFlows: at
 * synth, npm start and in scripts). Inside a function so that a Lambda bundle, which reads flows from
 * the table and never the file, carries none of them: esbuild keeps a module-level valibot call it
 * cannot prove pure.
 */
function flowsFileSchemas() {
  const Iso3 = v.pipe(v.string(), v.check(isIso3, 'unknown ISO 3166 alpha-3 code'));
  const Sides = v.picklist([1, 2]);

  /** One document type as written in config/flows.json. */
  const DocumentTypeConfig = v.strictObject({
    id: v.pipe(v.number(), v.integer(), v.minValue(1)),
    name: v.pipe(v.string(), v.nonEmpty()),
    context_type: v.picklist(CONTEXT_TYPES),
    /** 1 = single-sided, 2 = double-sided, for every country not in sides_by_country. */
    sides: Sides,
    sides_by_country: v.optional(v.record(Iso3, Sides), {}),
    /** Countries that may issue it; omitted means every ISO country. */
    allowed_countries: v.optional(v.array(Iso3)),
    forbidden_countries: v.optional(v.array(Iso3), []),
  });

  /**
   * Fraud and consistency checks of a flow (docs/explanation/fraud-signals.md). Each one left out is
   * not evaluated; `duplicate_document`, `cross_source`, `duplicate_face` and `selfie_liveness` are on unless set to false.
   */
  const FlowChecksConfig = v.strictObject({
    /** Youngest age (whole years at submission) the date of birth on the photo ID may show. */
    minimum_age: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(150))),
    /** Days before submission a proof of address may have been issued. */
    proof_of_address_max_age_days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3650))),
    /** Same document (type, issuing country, number) on another verification of the flow with another person. */
    duplicate_document: v.optional(v.boolean(), true),
    /** MRZ vs barcode vs printed fields on the same document, and the photo ID's name vs the proof of address's. */
    cross_source: v.optional(v.boolean(), true),
    /** Same face (selfie descriptor) on another verification of the flow with another person. */
    duplicate_face: v.optional(v.boolean(), true),
    /**
     * Largest descriptor distance (face-api, Euclidean) counted as the same face: 0.45, calibrated by
     * `npm run bench:faces` (no impostor pair below 0.558; docs/explanation/fraud-signals.md).
     */
    duplicate_face_max_distance: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(2)), 0.45),
    /** Passive presentation-attack checks of the selfie (Human's antispoof and liveness models); thresholds in config/rules.json. */
    selfie_liveness: v.optional(v.boolean(), true),
    /** Active liveness: a challenge the server draws, filmed in the widget, judged in the pipeline (LIVENESS_REQUIREMENTS). */
    liveness: v.optional(v.picklist(LIVENESS_REQUIREMENTS), 'optional'),
    /**
     * Who judges the liveness: the server's own challenge (`challenge`, offline and deployed) or Amazon
     * Rekognition Face Liveness (`rekognition`, deployed only: the widget then films with AWS's capture).
     */
    liveness_provider: v.optional(v.picklist(LIVENESS_PROVIDERS), 'challenge'),
    /**
     * The selfie's age estimate (src/domain/age-estimate.ts), off unless set: the largest gap in years
     * between the age the face model estimates and the photo ID's date of birth before the selfie goes
     * to review (selfie.age_estimate; 15 is a sensible value), and, with minimum_age, the "over N" check
     * on the estimate (selfie.over_minimum_age). Never a rejection on an estimate.
     */
    age_estimate_max_gap_years: v.optional(v.pipe(v.number(), v.integer(), v.minValue(5), v.maxValue(60))),
    /**
     * Sanctions screening of the person's name and date of birth against the lists named (ids of the
     * loaders: ofac-sdn, un-sc); off when absent. A hit at or above the threshold (0.83: where
     * `npm run bench:screening` meets recall ≥ 98 % and ≤ 1 false positive per 1,000) → Double Check, never a
     * rejection; a list older than max_age_days → not evaluated (review). `rescreen`: approved
     * verifications are screened again when a new snapshot arrives (ScreeningHit event).
     */
    screening: v.optional(
      v.strictObject({
        lists: v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'a list id such as ofac-sdn'))), v.minLength(1)),
        threshold: v.optional(v.pipe(v.number(), v.minValue(0.5), v.maxValue(1)), DEFAULT_SCREENING_THRESHOLD),
        max_age_days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365)), DEFAULT_MAX_AGE_DAYS),
        rescreen: v.optional(v.boolean(), false),
      }),
    ),
  });
  /** A text per language, English required (the fallback of the others). */
  const Texts = v.pipe(
    v.record(v.picklist(WIDGET_LANGUAGES), v.pipe(v.string(), v.nonEmpty(), v.maxLength(2000))),
    v.check((t) => typeof t.en === 'string', 'an English text (en) is required'),
  );
  const HttpsUrl = v.pipe(v.string(), v.url(), v.check((u) => /^https:\/\//.test(u), 'an https URL'));
  const Colour = v.pipe(v.string(), v.regex(/^#[0-9a-f]{6}$/i, 'a #rrggbb colour'));

  /**
   * What the end-user page shows of this flow (all optional): its intro and consent texts, a logo,
   * the brand colour (of buttons and links: white text on it must reach 4.5:1, WCAG AA), where the
   * outcome screen sends the person back to, the company's name and its privacy notice.
   */
  const WidgetConfig = v.strictObject({
    intro: v.optional(Texts),
    consent: v.optional(Texts),
    logo_url: v.optional(HttpsUrl),
    /** The logo's text alternative, e.g. the company's name. */
    logo_alt: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))),
    primary_color: v.optional(v.pipe(Colour, v.check((c) => contrastRatio(c, '#ffffff') >= 4.5, 'white text on it must reach a contrast of 4.5:1'))),
    return_url: v.optional(HttpsUrl),
    /**
     * The deploying company's name: the person sees whom they give their documents to, at the top of
     * every page and beside the consent. config/flows.json ships a neutral one ("Example Company").
     */
    company_name: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))),
    /** The company's privacy notice, linked beside the consent and at the foot of every page (opens in a new tab). */
    privacy_url: v.optional(HttpsUrl),
  });
  const FlowConfig = v.strictObject({
    path: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lower-case letters, digits and dashes')),
    name: v.pipe(v.string(), v.nonEmpty()),
    required_contexts: v.array(v.picklist(CONTEXT_TYPES)),
    document_types: v.array(v.pipe(v.number(), v.integer())),
    /** Days a verification may stay Started before the expiry job moves it to Expired. */
    expire_after_days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365)), 7),
    /** Which extractor reads this flow's documents when the deployment offers several (default: the deployment's). */
    extractor: v.optional(v.picklist(EXTRACTOR_NAMES)),
    checks: v.optional(FlowChecksConfig, CHECKS_UNLESS_SET),
    /** The end-user page's texts, logo, colour and return link. */
    widget: v.optional(WidgetConfig),
  });

  /** The checked-in configuration file's schema (config/flows.json). */
  const FlowsFileSchema = v.strictObject({
    document_types: v.array(DocumentTypeConfig),
    flows: v.array(FlowConfig),
  });
  return { FlowChecksConfig, WidgetConfig, FlowsFileSchema };
}
type FlowsFileSchemas = ReturnType<typeof flowsFileSchemas>;

/** A document type resolved for a flow: what the domain rules consult. */
export interface DocumentType {
  id: number;
  name: string;
  context_type: ContextType;
  sides: 1 | 2;
  sides_by_country: Record<string, 1 | 2>;
  allowed_countries: string[] | null;
  forbidden_countries: string[];
}

/** A flow with its document types embedded: the unit stored in the table and cached per container. */
export interface Flow {
  path: string;
  name: string;
  required_contexts: ContextType[];
  document_types: DocumentType[];
  expire_after_days: number;
  extractor?: ExtractorName;
  /** Absent on flows stored before checks existed: DEFAULT_CHECKS then. */
  checks?: FlowChecks;
  widget?: WidgetConfig;
}

/** Validates the configuration file and resolves each flow's document types. Throws on any inconsistency. */
export function resolveFlows(raw: unknown): Flow[] {
  const file = v.parse(flowsFileSchemas().FlowsFileSchema, raw);
  const byId = new Map(file.document_types.map((t) => [t.id, t]));
  if (byId.size !== file.document_types.length) throw new Error('flows config: duplicate document type id');
  const paths = new Set<string>();
  return file.flows.map((flow) => {
    if (paths.has(flow.path)) throw new Error(`flows config: duplicate flow path ${flow.path}`);
    paths.add(flow.path);
    const types = flow.document_types.map((id) => {
      const t = byId.get(id);
      if (!t) throw new Error(`flows config: flow ${flow.path} names unknown document type ${id}`);
      return { ...t, allowed_countries: t.allowed_countries ?? null } satisfies DocumentType;
    });
    for (const ctx of flow.required_contexts) {
      if (!types.some((t) => t.context_type === ctx)) {
        throw new Error(`flows config: flow ${flow.path} requires ${ctx} but offers no such document type`);
      }
    }
    return { ...flow, document_types: types };
  });
}

/** A flow "supports" a context when it requires it (spec: person/address required if the flow supports the context). */
export function flowRequires(flow: Flow, context: ContextType): boolean {
  return flow.required_contexts.includes(context);
}

export function isCountryAllowed(type: DocumentType, iso3: string): boolean {
  if (type.forbidden_countries.includes(iso3)) return false;
  return type.allowed_countries === null || type.allowed_countries.includes(iso3);
}

export function isDoubleSided(type: DocumentType, iso3: string): boolean {
  return (type.sides_by_country[iso3] ?? type.sides) === 2;
}

export function findTypeById(flow: Flow, id: number): DocumentType | undefined {
  return flow.document_types.find((t) => t.id === id);
}

export function findTypeByName(flow: Flow, name: string, context: ContextType): DocumentType | undefined {
  return flow.document_types.find((t) => t.context_type === context && t.name === name);
}

/** The public shape served by GET /api/v1/<flow>/configuration, with explicit country lists. */
export function describeFlow(flow: Flow) {
  const all = allIso3();
  return {
    path: flow.path,
    name: flow.name,
    required_contexts: flow.required_contexts,
    expire_after_days: flow.expire_after_days,
    document_types: flow.document_types.map((t) => {
      const allowed = all.filter((c) => isCountryAllowed(t, c));
      return {
        id: t.id,
        name: t.name,
        type_label: CONTEXT_LABELS[t.context_type],
        context_type: t.context_type,
        allowed_countries: allowed,
        double_sided_countries: allowed.filter((c) => isDoubleSided(t, c)),
        forbidden_countries: [...t.forbidden_countries],
      };
    }),
  };
}
