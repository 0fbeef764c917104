import type { VizLine } from '../viz';
import type { LabelSpec } from './labelled';
import { readLabelled } from './labelled';
import { dateValue, type FieldRead, nameValue, numberValue } from './lines';

/**
 * National identity-card fronts without an MRZ (the French card of 2021, whose MRZ is on the back, and
 * cards laid out like it): labels printed small above the values, often in two languages on one line
 * ("NOM / Surname", "DATE DE NAISS. / Date of birth", "N° DU DOCUMENT / Document No"). Labels in
 * French, English, German, Spanish, Italian and Dutch, as folded (foldText). Pure functions.
 */
/** A label of words at the start of a folded line, the spaces between its words optional (OCR drops them: "DATED EXPIR"). */
const words = (...labels: string[]) => new RegExp(`^(?:${labels.map((l) => l.replace(/ /g, ' ?')).join('|')})\\b ?`);

export function idFrontSpecs(country: string): LabelSpec[] {
  const date = (century: number) => (t: string) => dateValue(t, country, century);
  return [
    { field: 'person.surname', label: /^(?:NOM(?! D ?USAGE)|SURNAME|NACHNAME|FAMILIENNAME|APELLIDOS?|COGNOME|ACHTERNAAM)\b ?/, parse: nameValue },
    { field: 'person.given_names', label: /^(?:PRENOMS?|GIVEN NAMES?|VORNAMEN?|NOMBRES?|NOME|VOORNAMEN)\b ?/, parse: nameValue },
    { field: 'person.date_of_birth', label: words('DATE DE NAISS(?:ANCE)?', 'DATE OF BIRTH', 'GEBURTSDATUM', 'GEBURTSTAG', 'FECHA DE NACIMIENTO', 'FECHA NACIMIENTO', 'DATA DI NASCITA', 'GEBOORTEDATUM'), parse: date(19) },
    { field: 'document.number', label: words('N DU DOCUMENT', 'DOCUMENT NO', 'DOCUMENT NUMBER', 'CARD NO', 'AUSWEISNUMMER', 'NUM SOPORTE', 'N DOCUMENTO', 'DOCUMENTNUMMER'), parse: (t) => numberValue(t.split(' ')[0] ?? '') ?? numberValue(t) },
    { field: 'document.expiration_date', label: words('DATE D EXPIR(?:ATION)?', 'EXPIRY DATE', 'DATE OF EXPIRY', 'GULTIG BIS', 'FECHA DE CADUCIDAD', 'VALIDEZ', 'DATA DI SCADENZA', 'SCADENZA', 'GELDIG TOT'), parse: date(20) },
  ];
}

/** Labels on such cards that head other fields (so that their line is never taken for a value). */
const OTHER_LABELS = [words('SEXE', 'SEX', 'NATIONALITE', 'NATIONALITY', 'LIEU DE NAISSANCE', 'PLACE OF BIRTH', 'NOM D USAGE', 'SIGNATURE', 'GEBURTSORT', 'LUGAR DE NACIMIENTO')];

/** An identity-card front's fields as printed. */
export function readIdFront(lines: VizLine[], country: string): FieldRead[] {
  return readLabelled(lines, idFrontSpecs(country), OTHER_LABELS);
}
