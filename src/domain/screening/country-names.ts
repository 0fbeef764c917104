import { allIso3, countryByIso3 } from '../countries';
import { foldText } from './normalise';

/**
 * Country names as sanctions lists print them ("Korea, North", "Iran", "Palestinian", "Burma",
 * "Congo, Democratic Republic of the") to ISO 3166-1 alpha-2. The ISO names come from the
 * service's own table (src/domain/countries.ts); the lists' own spellings are added here.
 */
const LIST_SPELLINGS: Record<string, string> = {
  russia: 'RU',
  iran: 'IR',
  syria: 'SY',
  'korea north': 'KP',
  'north korea': 'KP',
  'democratic peoples republic of korea': 'KP',
  dprk: 'KP',
  'korea south': 'KR',
  'south korea': 'KR',
  'republic of korea': 'KR',
  burma: 'MM',
  turkey: 'TR',
  turkiye: 'TR',
  palestinian: 'PS',
  'possibly palestinian': 'PS',
  'palestinian authority': 'PS',
  palestine: 'PS',
  'west bank': 'PS',
  gaza: 'PS',
  'congo democratic republic of the': 'CD',
  'democratic republic of the congo': 'CD',
  'congo republic of the': 'CG',
  congo: 'CG',
  tanzania: 'TZ',
  moldova: 'MD',
  'north macedonia': 'MK',
  'north macedonia the republic of': 'MK',
  macedonia: 'MK',
  vietnam: 'VN',
  'viet nam': 'VN',
  laos: 'LA',
  bolivia: 'BO',
  venezuela: 'VE',
  'united states': 'US',
  'united states of america': 'US',
  usa: 'US',
  'united kingdom': 'GB',
  'united kingdom of great britain and northern ireland': 'GB',
  uk: 'GB',
  'great britain': 'GB',
  'hong kong': 'HK',
  macau: 'MO',
  macao: 'MO',
  taiwan: 'TW',
  'cote d ivoire': 'CI',
  'ivory coast': 'CI',
  'bahamas the': 'BS',
  'gambia the': 'GM',
  'the gambia': 'GM',
  'man isle of': 'IM',
  'virgin islands british': 'VG',
  'cabo verde': 'CV',
  'cape verde': 'CV',
  brunei: 'BN',
  kosovo: 'XK',
  'czech republic': 'CZ',
  czechia: 'CZ',
  micronesia: 'FM',
  'holy see': 'VA',
  vatican: 'VA',
  'saint kitts and nevis': 'KN',
  'saint vincent and the grenadines': 'VC',
  'trinidad and tobago': 'TT',
  swaziland: 'SZ',
  eswatini: 'SZ',
  'east timor': 'TL',
  'timor leste': 'TL',
  'kyrgyz republic': 'KG',
  'former soviet union': 'RU',
  ussr: 'RU',
};

let byName: Map<string, string> | undefined;

function table(): Map<string, string> {
  if (byName) return byName;
  const map = new Map<string, string>();
  for (const iso3 of allIso3()) {
    const country = countryByIso3(iso3);
    if (!country) continue;
    map.set(foldText(country.name), country.iso2);
    map.set(country.iso2.toLowerCase(), country.iso2);
    map.set(iso3.toLowerCase(), country.iso2);
  }
  for (const [name, iso2] of Object.entries(LIST_SPELLINGS)) map.set(name, iso2);
  byName = map;
  return map;
}

/** ISO 3166-1 alpha-2 for a country as a list or a person gives it (name, alpha-2 or alpha-3); undefined when unknown. */
export function countryCode(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const trimmed = name.trim();
  const cached = memo.get(trimmed);
  if (cached !== undefined || memo.has(trimmed)) return cached;
  const code = lookUp(trimmed);
  if (memo.size < 5000) memo.set(trimmed, code);
  return code;
}

const memo = new Map<string, string | undefined>();

function lookUp(trimmed: string): string | undefined {
  const folded = foldText(trimmed.length > 80 ? '' : trimmed);
  if (folded.length === 0 || folded.length > 80) return undefined;
  return table().get(folded) ?? table().get(folded.replace(/^the /, ''));
}
