import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { type Identity, LOCALES, type LocaleCountry, type Rng, int, pick } from './identity';
import { printFamily } from './render';

/**
 * Proof-of-address pages in English, French, German and Spanish as their senders print them, for
 * reading the page whole without expected data (issue 31): a letterhead with the sender's own address
 * (a postal code that is not the holder's), the recipient's block where the envelope window is (left,
 * or right as French letters put it), under a small sender line in German letters, the date after a
 * label or in the letter's "place, date" line, and a customer-service line. Bills, bank statements and
 * letters; fictional companies and people.
 */

export type LetterLanguage = 'en' | 'fr' | 'de' | 'es';
export type LetterType = 'bill' | 'statement' | 'letter';

const LANGUAGE_OF: Record<LocaleCountry, LetterLanguage> = { GBR: 'en', USA: 'en', FRA: 'fr', DEU: 'de', ESP: 'es', ITA: 'en', NLD: 'en', CAN: 'en' };

const MONTH_NAMES: Record<LetterLanguage, string[]> = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  de: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
};

interface Wording {
  companies: Record<LetterType, string[]>;
  titles: Record<LetterType, string>;
  /** The label before the issue date on bills and statements. */
  dateLabel: Record<Exclude<LetterType, 'letter'>, string>;
  /** The letter's dated line: "Lyon, le 12 octobre 2026". */
  placeDate: (city: string, day: number, month: string, year: string) => string;
  /** Forms of address by sex. */
  titlesOf: { M: string[]; F: string[] };
  service: string;
  account: string;
  total: string;
  body: string[];
  country: Record<string, string>;
}

const WORDING: Record<LetterLanguage, Wording> = {
  en: {
    companies: { bill: ['NORTHWIND ENERGY LTD', 'CITYWATER UTILITIES', 'BRIGHTLINE POWER & GAS'], statement: ['FIRST HARBOR BANK', 'MERIDIAN SAVINGS'], letter: ['CASTLEGATE INSURANCE', 'COUNCIL TAX OFFICE'] },
    titles: { bill: 'Electricity bill', statement: 'Account statement', letter: 'Your policy renewal' },
    dateLabel: { bill: 'Bill date', statement: 'Statement date' },
    placeDate: (_city, day, month, year) => `${day} ${month} ${year}`,
    titlesOf: { M: ['Mr', ''], F: ['Mrs', 'Ms', ''] },
    service: 'CUSTOMER SUPPORT DEPARTMENT',
    account: 'Account number',
    total: 'Total due',
    body: ['Thank you for being our customer.', 'Please find the details of your account below.', 'Keep this document for your records.'],
    country: { GBR: 'UNITED KINGDOM', USA: 'USA' },
  },
  fr: {
    companies: { bill: ['ÉNERGIES DU RHÔNE SA', 'EAUX DE LA VALLÉE', 'GAZ ET LUMIÈRE'], statement: ['BANQUE DU LITTORAL', 'CRÉDIT DES ALPES'], letter: ['MUTUELLE DES TILLEULS', 'ASSURANCES DU CENTRE'] },
    titles: { bill: "Facture d'électricité", statement: 'Relevé de compte', letter: 'Renouvellement de votre contrat' },
    dateLabel: { bill: 'Date de facture', statement: "Date d'émission" },
    placeDate: (city, day, month, year) => `${city}, le ${day === 1 ? '1er' : day} ${month} ${year}`,
    titlesOf: { M: ['M.', 'Monsieur'], F: ['Mme', 'Madame'] },
    service: 'SERVICE CLIENT',
    account: 'N° de client',
    total: 'Montant à payer',
    body: ['Madame, Monsieur,', 'Vous trouverez ci-dessous le détail de votre compte.', 'Nous vous prions d’agréer nos salutations distinguées.'],
    country: { FRA: 'FRANCE' },
  },
  de: {
    companies: { bill: ['STADTWERKE NORDHAFEN GMBH', 'ENERGIE SÜDWEST AG'], statement: ['SPARKASSE AM SEE', 'VOLKSBANK RHEINTAL EG'], letter: ['HANSE VERSICHERUNG AG', 'BÜRGERAMT MITTE'] },
    titles: { bill: 'Stromrechnung', statement: 'Kontoauszug', letter: 'Ihre Vertragsverlängerung' },
    dateLabel: { bill: 'Rechnungsdatum', statement: 'Datum' },
    placeDate: (city, day, month, year) => `${city}, ${day}. ${month} ${year}`,
    titlesOf: { M: ['Herrn', 'Herr'], F: ['Frau'] },
    service: 'KUNDENSERVICE',
    account: 'Kundennummer',
    total: 'Rechnungsbetrag',
    body: ['Sehr geehrte Damen und Herren,', 'anbei erhalten Sie die Übersicht Ihres Kontos.', 'Mit freundlichen Grüßen'],
    country: { DEU: 'DEUTSCHLAND' },
  },
  es: {
    companies: { bill: ['ELÉCTRICA DEL SUR SA', 'AGUAS DE LA BAHÍA'], statement: ['BANCO DE LA RIBERA', 'CAJA RURAL DEL NORTE'], letter: ['SEGUROS LA ENCINA', 'AYUNTAMIENTO DE LA VILLA'] },
    titles: { bill: 'Factura de electricidad', statement: 'Extracto de cuenta', letter: 'Renovación de su póliza' },
    dateLabel: { bill: 'Fecha de factura', statement: 'Fecha de emisión' },
    placeDate: (city, day, month, year) => `${city}, ${day} de ${month} de ${year}`,
    titlesOf: { M: ['D.', 'Sr.'], F: ['Dña.', 'Sra.'] },
    service: 'ATENCIÓN AL CLIENTE',
    account: 'N.º de cliente',
    total: 'Importe total',
    body: ['Estimado cliente:', 'A continuación le detallamos el estado de su cuenta.', 'Atentamente,'],
    country: { ESP: 'ESPAÑA' },
  },
};

/** What a letter prints, and what reading it whole must give back. */
export interface Letter {
  language: LetterLanguage;
  type: LetterType;
  company: string;
  companyStreet: string;
  companyCity: string;
  phone: string;
  title: string;
  /** The issue date line as printed ("Date de facture : 12/10/2026", "Berlin, 12. Oktober 2026"). */
  dated: string;
  recipient: string[];
  /** Which side the recipient's block is printed on. */
  side: 'left' | 'right';
  /** A small sender line above the recipient (the window of German letters). */
  senderLine?: string;
  account: string;
  truth: Record<string, string>;
}

const cap = (s: string) => s.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase());

/** A letter to `p` (name, street, place as the country prints them) issued on `date` (YYYY-MM-DD). */
export function letterFor(p: Identity, country: LocaleCountry, type: LetterType, date: string, rng: Rng): Letter {
  const language = LANGUAGE_OF[country];
  const w = WORDING[language];
  const company = pick(rng, w.companies[type]);
  const other = pick(rng, LOCALES[country].places.filter((pl) => pl.city !== p.place.city));
  const companyPlace = other ?? p.place;
  const companyStreet = LOCALES[country].numberFirst ? `${int(rng, 1, 99)} ${pick(rng, LOCALES[country].streets)}` : `${pick(rng, LOCALES[country].streets)} ${int(rng, 1, 99)}`;
  const cityLine = (pl: typeof p.place) => (country === 'USA' ? `${pl.city}, ${pl.state} ${pl.zip}` : country === 'GBR' ? `${pl.city} ${pl.zip}` : `${pl.zip} ${pl.city}`);
  const [y, m, d] = [date.slice(0, 4), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
  const month = MONTH_NAMES[language][m - 1] as string;
  const numeric = language === 'de' ? `${date.slice(8, 10)}.${date.slice(5, 7)}.${y}` : country === 'USA' ? `${date.slice(5, 7)}/${date.slice(8, 10)}/${y}` : `${date.slice(8, 10)}/${date.slice(5, 7)}/${y}`;
  const dated =
    type === 'letter' ? w.placeDate(cap(companyPlace.city), d, month, y) : `${w.dateLabel[type]}: ${rng() < 0.5 ? numeric : language === 'de' ? `${d}. ${month} ${y}` : language === 'en' ? `${d} ${month} ${y}` : `${d} ${language === 'es' ? `de ${month} de` : month} ${y}`}`;
  const mixed = rng() < 0.5;
  const title = pick(rng, w.titlesOf[p.sex]);
  // French letters print the surname in capitals after the given names; others in the case of the rest.
  const name = language === 'fr' ? `${cap(p.givenNames)} ${p.surname}` : mixed ? `${cap(p.givenNames)} ${cap(p.surname)}` : `${p.givenNames} ${p.surname}`;
  const recipient = [title ? `${title} ${name}` : name, mixed ? cap(p.street) : p.street, mixed ? cityLine({ ...p.place, city: cap(p.place.city) }) : cityLine(p.place)];
  const printsCountry = rng() < 0.35;
  if (printsCountry) recipient.push(w.country[country] ?? country);
  const side = language === 'fr' ? pick(rng, ['right', 'right', 'left'] as const) : pick(rng, ['left', 'left', 'right'] as const);
  return {
    language,
    type,
    company,
    companyStreet: cap(companyStreet),
    companyCity: cityLine({ ...companyPlace, city: cap(companyPlace.city) }),
    phone: country === 'USA' ? `1-800-${int(rng, 200, 999)}-${int(rng, 1000, 9999)}` : `0${int(rng, 100, 999)} ${int(rng, 100, 999)} ${int(rng, 100, 999)}`,
    title: w.titles[type],
    dated,
    recipient,
    side,
    ...(language === 'de' && { senderLine: `${cap(company)} · ${cap(companyStreet)} · ${companyPlace.zip} ${cap(companyPlace.city)}` }),
    account: String(int(rng, 10_000_000, 99_999_999)),
    truth: {
      'person.full_name': `${p.givenNames} ${p.surname}`,
      'address.street': p.street,
      'address.city': p.place.city,
      'address.zip': p.place.zip,
      ...(p.place.state && { 'address.state': p.place.state }),
      'address.country': country,
      'document.issue_date': date,
      'document.issuing_entity': company,
    },
  };
}

/** The letter as a page image (A4 at 150 dpi). */
export function renderLetter(l: Letter, rng: Rng): Canvas {
  const canvas = createCanvas(1240, 1754);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 1240, 1754);
  // From npm packages (render.ts printFamily), never the system's: Arimo and Tinos are Liberation Sans's and Serif's designs.
  const face = printFamily(pick(rng, ['DejaVu Sans', 'Arimo', 'DejaVu Serif', 'Tinos'] as const));
  const put = (value: string, x: number, y: number, size: number, bold = false, color = '#151515') => {
    ctx.font = `${bold ? 'bold ' : ''}${size}px "${face}"`;
    ctx.fillStyle = color;
    ctx.fillText(value, x, y);
  };
  const w = WORDING[l.language];
  // Letterhead: the company, its own address and telephone (a postal code that is not the holder's).
  const band = rng() < 0.5;
  if (band) {
    ctx.fillStyle = pick(rng, ['#1d4e89', '#6b1d2f', '#1f5d3a']);
    ctx.fillRect(0, 0, 1240, 130);
  }
  put(l.company, 80, 85, 44, true, band ? '#ffffff' : '#1d3557');
  put(l.companyStreet, 80, 175, 20, false, '#444');
  put(l.companyCity, 80, 202, 20, false, '#444');
  put(`${w.service}: ${l.phone}`, 80, 229, 20, false, '#444');
  // The recipient's block where the envelope's window is.
  const x = l.side === 'left' ? 110 : 700;
  let y = 400;
  if (l.senderLine) put(l.senderLine, x, y - 48, 15, false, '#555');
  for (const line of l.recipient) {
    put(line, x, y, 28);
    y += 40;
  }
  // The date: a letter's "place, date" line on the right; a bill's labelled date in its details.
  if (l.type === 'letter') put(l.dated, 700, 690, 24);
  else {
    const dx = l.side === 'left' ? 740 : 110;
    put(l.title, dx, 250, 30, true);
    put(l.dated, dx, 292, 22);
    put(`${w.account}: ${l.account}`, dx, 326, 22);
  }
  put(l.type === 'letter' ? l.title : w.body[0] as string, 110, 780, 26, l.type === 'letter');
  w.body.slice(1).forEach((line, i) => put(line, 110, 830 + i * 40, 24));
  if (l.type !== 'letter') {
    ctx.strokeStyle = '#999';
    ctx.beginPath();
    ctx.moveTo(100, 960);
    ctx.lineTo(1140, 960);
    ctx.stroke();
    for (let i = 0; i < 4; i++) put(`${int(rng, 5, 240)},${String(int(rng, 0, 99)).padStart(2, '0')} €`.replace(' €', l.language === 'en' ? '' : ' €'), 940, 1010 + i * 46, 22);
    put(`${w.total}: ${int(rng, 40, 400)},${String(int(rng, 0, 99)).padStart(2, '0')}`, 700, 1230, 28, true);
  }
  put(`${l.company} · ${l.companyStreet} · ${l.companyCity}`, 110, 1660, 16, false, '#666');
  return canvas;
}

/** The same letter as a born-digital PDF (text layer, no image), in Helvetica. */
export async function letterPdf(l: Letter): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  // Helvetica's WinAnsi encoding has no middle dot in every viewer: the sender line uses hyphens.
  const draw = (text: string, x: number, y: number, size: number, f = font) => page.drawText(text.replace(/·/g, '-'), { x, y, size, font: f, color: rgb(0.1, 0.1, 0.1) });
  draw(l.company, 40, 790, 20, bold);
  draw(l.companyStreet, 40, 765, 9);
  draw(l.companyCity, 40, 753, 9);
  const x = l.side === 'left' ? 55 : 340;
  if (l.senderLine) draw(l.senderLine, x, 672, 7);
  l.recipient.forEach((line, i) => draw(line, x, 655 - i * 16, 12));
  if (l.type === 'letter') draw(l.dated, 340, 520, 11);
  else {
    draw(l.title, l.side === 'left' ? 350 : 55, 740, 14, bold);
    draw(l.dated, l.side === 'left' ? 350 : 55, 722, 10);
  }
  draw(WORDING[l.language].body[1] as string, 55, 480, 11);
  return Buffer.from(await pdf.save());
}
