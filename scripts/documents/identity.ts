/**
 * Seeded synthetic identities for the document generator: names, dates, numbers and addresses,
 * and the ICAO 9303 machine-readable zones built from them. Test tooling only.
 */

/** A small seeded PRNG (mulberry32): the same seed gives the same documents on every machine. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;
export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
export const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));

const SURNAMES = [
  'SMITH', 'MUELLER', 'GARCIA', 'ANDERSSON', 'OKAFOR', 'NGUYEN', 'ROSSI', 'DUBOIS', 'KOWALSKI', 'JOHANSSON',
  'VAN DER BERG', 'FERNANDEZ LOPEZ', 'OBRIEN', 'SCHMIDT', 'TANAKA', 'MARTIN', 'PETROVA', 'HOLLOWAY', 'BRENNAN', 'SILVA',
  'WESTBROOK', 'LINDQVIST', 'NAKAMURA', 'CARVALHO', 'BAUER', 'QUINTERO', 'MACLEOD', 'HARTMANN', 'ESPOSITO', 'FISCHER',
];
const GIVEN = [
  'ANNA', 'JOHN', 'MARIA', 'PETER', 'SOFIA', 'LUCAS', 'EMMA', 'NOAH', 'OLIVIA', 'LIAM', 'CHLOE', 'MATEO',
  'HANNAH', 'OSKAR', 'AMARA', 'KENJI', 'ISABEL', 'THEO', 'NADIA', 'FELIX', 'ZOE', 'VIKTOR', 'ELENA', 'SAMUEL',
];
const STREETS = ['MAIN ST', 'OAK AVENUE', 'ELM STREET', 'MAPLE DRIVE', 'HIGH STREET', 'CEDAR LANE', 'PARK ROAD', 'RIVER WAY', 'HILL CREST', 'BIRCH COURT'];

export interface Place {
  country: string;
  city: string;
  state: string;
  zip: string;
}
const US_PLACES: Place[] = [
  { country: 'USA', city: 'SPRINGFIELD', state: 'IL', zip: '62704' },
  { country: 'USA', city: 'AUSTIN', state: 'TX', zip: '78701' },
  { country: 'USA', city: 'PORTLAND', state: 'OR', zip: '97205' },
  { country: 'USA', city: 'DENVER', state: 'CO', zip: '80202' },
  { country: 'USA', city: 'SACRAMENTO', state: 'CA', zip: '95814' },
  { country: 'USA', city: 'ALBANY', state: 'NY', zip: '12207' },
];
const OTHER_PLACES: Place[] = [
  { country: 'DEU', city: 'BERLIN', state: '', zip: '10115' },
  { country: 'GBR', city: 'LONDON', state: '', zip: 'SW1A 2AA' },
  { country: 'FRA', city: 'LYON', state: '', zip: '69002' },
  { country: 'NLD', city: 'UTRECHT', state: '', zip: '3511 AB' },
  { country: 'ESP', city: 'SEVILLA', state: '', zip: '41001' },
];
export const PASSPORT_COUNTRIES = ['DEU', 'FRA', 'GBR', 'USA', 'CAN', 'NLD', 'ESP', 'ITA', 'SWE', 'IRL'] as const;
export const ID_CARD_COUNTRIES = ['DEU', 'FRA', 'ESP', 'NLD', 'ITA', 'BEL', 'PRT'] as const;
/** AAMVA issuer identification numbers of a few US states. */
export const US_STATES: Record<string, { iin: string; name: string }> = {
  IL: { iin: '636035', name: 'ILLINOIS' },
  TX: { iin: '636015', name: 'TEXAS' },
  OR: { iin: '636029', name: 'OREGON' },
  CO: { iin: '636020', name: 'COLORADO' },
  CA: { iin: '636014', name: 'CALIFORNIA' },
  NY: { iin: '636001', name: 'NEW YORK' },
};

export interface Identity {
  surname: string;
  givenNames: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  sex: 'M' | 'F';
  nationality: string;
  documentNumber: string;
  /** YYYY-MM-DD */
  expirationDate: string;
  /** YYYY-MM-DD */
  issueDate: string;
  street: string;
  place: Place;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const date = (y: number, m: number, d: number): string => `${y}-${pad(m)}-${pad(d)}`;

export function identity(rng: Rng, options: { nationality?: string; place?: 'US' | 'ANY'; numberFormat?: 'passport' | 'dl' } = {}): Identity {
  const givenCount = rng() < 0.3 ? 2 : 1;
  const given: string[] = [];
  while (given.length < givenCount) {
    const g = pick(rng, GIVEN);
    if (!given.includes(g)) given.push(g);
  }
  const place = options.place === 'US' ? pick(rng, US_PLACES) : pick(rng, [...US_PLACES, ...OTHER_PLACES]);
  const letters = 'CFGHJKLMNPRTVWXYZ';
  const digits = (n: number) => Array.from({ length: n }, () => String(int(rng, 0, 9))).join('');
  const documentNumber =
    options.numberFormat === 'dl'
      ? `${pick(rng, [...letters])}${digits(7)}`
      : `${pick(rng, [...letters])}${pick(rng, [...letters])}${digits(7)}`;
  const issueYear = int(rng, 2018, 2025);
  return {
    surname: pick(rng, SURNAMES),
    givenNames: given.join(' '),
    dateOfBirth: date(int(rng, 1950, 2005), int(rng, 1, 12), int(rng, 1, 28)),
    sex: rng() < 0.5 ? 'M' : 'F',
    nationality: options.nationality ?? place.country,
    documentNumber,
    issueDate: date(issueYear, int(rng, 1, 12), int(rng, 1, 28)),
    expirationDate: date(issueYear + 10, int(rng, 1, 12), int(rng, 1, 28)),
    street: `${int(rng, 1, 980)} ${pick(rng, STREETS)}`,
    place,
  };
}

const CHAR_VALUES = (c: string): number => (c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);
/** ICAO 9303 check digit: weights 7, 3, 1. */
export function checkDigit(field: string): string {
  let sum = 0;
  for (let i = 0; i < field.length; i++) sum += CHAR_VALUES(field[i] as string) * ([7, 3, 1][i % 3] as number);
  return String(sum % 10);
}

const mrzName = (value: string): string => value.replace(/[^A-Z ]/g, '').replace(/ /g, '<');
const fill = (value: string, length: number): string => value.slice(0, length).padEnd(length, '<');
const yymmdd = (iso: string): string => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);

/** TD3 (passport): two lines of 44. */
export function td3(p: Identity): [string, string] {
  const line1 = fill(`P<${p.nationality}${mrzName(p.surname)}<<${mrzName(p.givenNames)}`, 44);
  const number = fill(p.documentNumber, 9);
  const dob = yymmdd(p.dateOfBirth);
  const exp = yymmdd(p.expirationDate);
  const personal = fill('', 14);
  const body = `${number}${checkDigit(number)}${p.nationality}${dob}${checkDigit(dob)}${p.sex}${exp}${checkDigit(exp)}${personal}${checkDigit(personal)}`;
  const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
  return [line1, body + composite];
}

/** TD1 (ID card): three lines of 30. */
export function td1(p: Identity): [string, string, string] {
  const number = fill(p.documentNumber, 9);
  const line1 = fill(`I<${p.nationality}${number}${checkDigit(number)}`, 30);
  const dob = yymmdd(p.dateOfBirth);
  const exp = yymmdd(p.expirationDate);
  const line2Body = `${dob}${checkDigit(dob)}${p.sex}${exp}${checkDigit(exp)}${p.nationality}${fill('', 11)}`;
  const composite = checkDigit(line1.slice(5, 30) + line2Body.slice(0, 7) + line2Body.slice(8, 15) + line2Body.slice(18, 29));
  const line3 = fill(`${mrzName(p.surname)}<<${mrzName(p.givenNames)}`, 30);
  return [line1, line2Body + composite, line3];
}

const mdy = (iso: string): string => iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(0, 4);
/** The AAMVA (CDS 2016, version 08) text a US licence's PDF417 barcode carries. */
export function aamva(p: Identity): string {
  const state = US_STATES[p.place.state] ?? { iin: '636000' };
  const [first, ...middle] = p.givenNames.split(' ');
  const fields = [
    `DAQ${p.documentNumber}`, `DCS${p.surname}`, 'DDEN', `DAC${first}`, 'DDFN', `DAD${middle.join(' ') || 'NONE'}`, 'DDGN',
    'DCAD', 'DCBNONE', 'DCDNONE', `DBD${mdy(p.issueDate)}`, `DBB${mdy(p.dateOfBirth)}`, `DBA${mdy(p.expirationDate)}`,
    `DBC${p.sex === 'M' ? 1 : 2}`, 'DAU069 in', 'DAYBRO', `DAG${p.street}`, `DAI${p.place.city}`, `DAJ${p.place.state}`,
    `DAK${p.place.zip.padEnd(9, '0')}`, 'DCF0123456789ABCDEF', 'DCGUSA', 'DCK0000000000000', 'DDB09012015',
  ];
  const subfile = `DL${fields.join('\n')}\r`;
  const header = `@\n\x1e\rANSI ${state.iin}080001DL`;
  const offset = header.length + 8;
  return `${header}${pad(offset, 4)}${pad(subfile.length, 4)}${subfile}`;
}

/**
 * Names, streets and places as each country prints them, for fronts and letters read without expected
 * data (issue 31): accents, particles and house numbers after the street where the country writes
 * them so. All fictional; cities and postal codes are real pairs so that address formats hold.
 */
interface Locale {
  surnames: readonly string[];
  given: readonly string[];
  streets: readonly string[];
  places: readonly Place[];
  /** Where the house number goes: before the street (FR, UK, US) or after it (DE, ES, IT, NL). */
  numberFirst: boolean;
}
const place = (country: string, zip: string, city: string, state = ''): Place => ({ country, zip, city, state });
export const LOCALES: Record<'FRA' | 'DEU' | 'ESP' | 'GBR' | 'ITA' | 'NLD' | 'USA' | 'CAN', Locale> = {
  FRA: {
    surnames: ['DUPONT', 'LEFÈVRE', 'MOREAU', 'GIRARD', 'FONTAINE', 'ROUSSEAU', 'BLANCHARD', 'CHEVALIER', 'LAMBERT', 'FAURE'],
    given: ['JEAN', 'MARIE', 'CAMILLE', 'LUC', 'SOPHIE', 'THOMAS', 'ÉLODIE', 'NICOLAS', 'AMÉLIE', 'BAPTISTE'],
    streets: ['RUE DES LILAS', 'AVENUE JEAN JAURÈS', 'BOULEVARD VOLTAIRE', 'RUE DE LA RÉPUBLIQUE', 'CHEMIN DU MOULIN', 'RUE VICTOR HUGO'],
    places: [place('FRA', '69002', 'LYON'), place('FRA', '75011', 'PARIS'), place('FRA', '31000', 'TOULOUSE'), place('FRA', '33000', 'BORDEAUX'), place('FRA', '44000', 'NANTES')],
    numberFirst: true,
  },
  DEU: {
    surnames: ['MÜLLER', 'SCHRÖDER', 'WEBER', 'KRAUSE', 'BECKER', 'HOFFMANN', 'KÖNIG', 'WAGNER', 'ZIMMERMANN', 'FRIEDRICH'],
    given: ['LUKAS', 'JULIA', 'JONAS', 'LEONIE', 'FELIX', 'MARIE', 'TOBIAS', 'SARAH', 'JÜRGEN', 'ANNIKA'],
    streets: ['HAUPTSTRASSE', 'LINDENALLEE', 'GOETHESTRASSE', 'AM MARKT', 'BAHNHOFSTRASSE', 'SCHILLERWEG', 'KASTANIENGASSE'],
    places: [place('DEU', '10115', 'BERLIN'), place('DEU', '80331', 'MÜNCHEN'), place('DEU', '50667', 'KÖLN'), place('DEU', '20095', 'HAMBURG'), place('DEU', '04109', 'LEIPZIG')],
    numberFirst: false,
  },
  ESP: {
    surnames: ['GARCÍA LÓPEZ', 'MARTÍNEZ RUIZ', 'SÁNCHEZ', 'FERNÁNDEZ MORA', 'NAVARRO', 'ROMERO GIL', 'JIMÉNEZ', 'ORTEGA'],
    given: ['JAVIER', 'LUCÍA', 'ALEJANDRO', 'CARMEN', 'PABLO', 'ELENA', 'MARÍA JOSÉ', 'ÁLVARO'],
    streets: ['CALLE MAYOR', 'AVENIDA DE LA CONSTITUCIÓN', 'CALLE DEL SOL', 'PASEO DE GRACIA', 'CALLE ALCALÁ', 'PLAZA NUEVA'],
    places: [place('ESP', '41001', 'SEVILLA'), place('ESP', '28013', 'MADRID'), place('ESP', '46002', 'VALENCIA'), place('ESP', '08002', 'BARCELONA'), place('ESP', '29001', 'MÁLAGA')],
    numberFirst: false,
  },
  GBR: {
    surnames: ['JONES', 'TAYLOR', 'BROWN', 'WILLIAMS', 'EVANS', 'THOMPSON', 'MORGAN', 'HUGHES', 'CAMPBELL', 'FLETCHER'],
    given: ['JAMES', 'SARAH', 'OLIVER', 'EMILY', 'HARRY', 'CHARLOTTE', 'GEORGE', 'AMELIA', 'WILLIAM', 'GRACE'],
    streets: ['BURNS CRESCENT', 'ACACIA AVENUE', 'HIGH STREET', 'VICTORIA ROAD', 'CHURCH LANE', 'MILL ROAD'],
    places: [place('GBR', 'EH1 9GP', 'EDINBURGH'), place('GBR', 'SW1A 2AA', 'LONDON'), place('GBR', 'M1 1AE', 'MANCHESTER'), place('GBR', 'BS1 4DJ', 'BRISTOL'), place('GBR', 'LS1 4AP', 'LEEDS')],
    numberFirst: true,
  },
  ITA: {
    surnames: ['BIANCHI', 'COLOMBO', 'RICCI', 'MARINO', 'GRECO', 'BRUNO'],
    given: ['GIULIA', 'MARCO', 'FRANCESCA', 'LORENZO', 'CHIARA', 'MATTEO'],
    streets: ['VIA ROMA', 'CORSO ITALIA', 'VIA GARIBALDI', 'VIALE DEI MILLE'],
    places: [place('ITA', '00184', 'ROMA'), place('ITA', '20121', 'MILANO'), place('ITA', '10121', 'TORINO')],
    numberFirst: false,
  },
  NLD: {
    surnames: ['DE VRIES', 'JANSEN', 'BAKKER', 'VISSER', 'SMIT', 'DE BOER'],
    given: ['DAAN', 'SANNE', 'LOTTE', 'BRAM', 'FLEUR', 'RUBEN'],
    streets: ['KERKSTRAAT', 'DORPSWEG', 'STATIONSPLEIN', 'MOLENLAAN'],
    places: [place('NLD', '3511 AB', 'UTRECHT'), place('NLD', '1012 JS', 'AMSTERDAM'), place('NLD', '2511 CV', 'DEN HAAG')],
    numberFirst: false,
  },
  USA: {
    surnames: ['MILLER', 'HARRIS', 'CLARK', 'LEWIS', 'WALKER', 'ROBINSON', 'YOUNG', 'ALLEN'],
    given: ['BRENDA', 'JOSEPH', 'EMILY', 'MICHAEL', 'ASHLEY', 'DANIEL', 'JESSICA', 'RYAN'],
    streets: ['MAIN STREET', 'MARVON AVE', 'OAK AVENUE', 'PINE ROAD', 'LAKE DRIVE', 'ELM STREET'],
    places: US_PLACES,
    numberFirst: true,
  },
  // English and French names, accents and hyphens as the provinces print them; real city and postal-code pairs.
  CAN: {
    surnames: ['TREMBLAY', 'GAGNON', 'CÔTÉ', 'BOUCHARD', 'MACDONALD', 'WILSON', 'LEBLANC', 'GAUTHIER', "O'CONNOR", 'BÉLANGER'],
    given: ['ÉTIENNE', 'MARIE-ÈVE', 'LIAM', 'CHLOÉ', 'OLIVIER', 'EMMA', 'NOAH', 'GABRIELLE', 'WILLIAM', 'ZOÉ'],
    streets: ['RUE SAINT-DENIS', 'YONGE ST', 'MAIN STREET', 'BOUL RENÉ-LÉVESQUE', 'KING ST W', 'ELGIN STREET', 'AVENUE DES PINS'],
    places: [
      place('CAN', 'M5V 3L9', 'TORONTO', 'ON'), place('CAN', 'K1P 5J2', 'OTTAWA', 'ON'), place('CAN', 'H2Y 1C6', 'MONTRÉAL', 'QC'), place('CAN', 'G1R 4P5', 'QUÉBEC', 'QC'),
      place('CAN', 'E3B 1A1', 'FREDERICTON', 'NB'), place('CAN', 'V6B 4Y8', 'VANCOUVER', 'BC'), place('CAN', 'T2P 1J9', 'CALGARY', 'AB'),
    ],
    numberFirst: true,
  },
};
export type LocaleCountry = keyof typeof LOCALES;

/** An identity whose name, street and place are printed as `country` prints them (a second given name one time in three). */
export function localIdentity(rng: Rng, country: LocaleCountry): Identity {
  const locale = LOCALES[country];
  const base = identity(rng, { nationality: country, ...(country === 'USA' && { numberFormat: 'dl' as const }) });
  const given = [pick(rng, locale.given)];
  if (rng() < 0.33) given.push(pick(rng, locale.given.filter((g) => g !== given[0])));
  const house = String(int(rng, 1, 160));
  const street = pick(rng, locale.streets);
  return { ...base, surname: pick(rng, locale.surnames), givenNames: given.join(' '), street: locale.numberFirst ? `${house} ${street}` : `${street} ${house}`, place: pick(rng, locale.places) };
}
