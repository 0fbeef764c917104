import * as v from 'valibot';
import type { ListSource } from '../ports/screening-snapshots';

/**
 * The lists' sources (config/screening-sources.json), read at synth and handed to the refresh job as
 * SCREENING_SOURCES: per list id (a loader of src/adapters/screening/loaders.ts), the URL of each file
 * of its snapshot by the loader's key; the band an entry count may move between two snapshots.
 */
const SourcesSchema = v.strictObject({
  lists: v.record(
    v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'a list id such as ofac-sdn')),
    v.strictObject({ files: v.record(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,32}$/)), v.pipe(v.string(), v.url(), v.startsWith('https://', 'an https URL'))) }),
  ),
  change_band: v.optional(v.pipe(v.number(), v.minValue(0.01), v.maxValue(1)), 0.2),
});

export type ScreeningSources = v.InferOutput<typeof SourcesSchema>;

/** Validates the sources (at synth, and again in the job from its environment); throws naming the setting. */
export function parseSources(raw: unknown): ScreeningSources {
  const parsed = v.safeParse(SourcesSchema, raw);
  if (!parsed.success) throw new Error(`screening sources: ${parsed.issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`).join('; ')}`);
  return parsed.output;
}

/** The sources of the lists some flow screens against, in a stable order. */
export function sourcesFor(sources: ScreeningSources, lists: readonly string[]): ListSource[] {
  return [...new Set(lists)].sort().flatMap((list) => {
    const s = sources.lists[list];
    return s ? [{ list, files: { ...s.files } }] : [];
  });
}
