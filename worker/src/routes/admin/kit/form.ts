/**
 * The one way a screen reads a posted form and puts a refused change's errors back at its
 * fields. Every form of the back office is named by the service's own paths where it can be
 * (`guest_fields.minimum_age`, `package.items.1.qty.max`), so an error of a 422 names its field;
 * a screen whose fields are rows (a season's date ranges, timeslots) says how a path maps to them.
 */
import { ApiError, type FieldError } from "../../../lib/errors";
import type { AdminContext } from "./kit";
import type { Lang } from "../strings";

/** A field's name: the service's path, or a row's name (`seg_start_2`); anything else is dropped. */
const NAME = /^[\w.-]{1,100}$/;
/** The longest text a field keeps (a settings text, the terms, is the longest there is). */
const MAX_TEXT = 60_000;

/** A posted form: every text value of each name (check boxes repeat a name), the CSRF token left out. */
export class Form {
  constructor(readonly all: Record<string, string[]>) {}

  /** The value of a field; the last one when its name repeats; "" when it was not sent. */
  get(name: string): string {
    return this.all[name]?.at(-1) ?? "";
  }

  /** Every value of a repeated field (check boxes), in the order sent. */
  list(name: string): string[] {
    return this.all[name] ?? [];
  }

  /** One value per name (the last): what a form shown again with its errors holds. */
  values(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, values] of Object.entries(this.all)) if (values.length) out[name] = values[values.length - 1];
    return out;
  }
}

/** Reads the request's form (urlencoded or multipart; files are ignored). */
export async function readForm(c: AdminContext): Promise<Form> {
  const body = await c.req.parseBody({ all: true });
  const all: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === "_csrf" || !NAME.test(name)) continue;
    all[name] = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string").map((v) => v.slice(0, MAX_TEXT));
  }
  return new Form(all);
}

/** A refused change as its form shows it: the status to answer, the message, each error at its field, and those no field holds. */
export interface Failure {
  status: 409 | 422;
  message: string;
  fields: Record<string, string>;
  /** `path: message` of the errors `place` found no field for (shown above the form). */
  unplaced: string[];
  /** The service's errors as it sent them (a 409 listing each date, say). */
  errors: FieldError[];
}

/** A zod issue as manage/core.ts keeps it on a field error (not in the API's JSON). */
interface Issue {
  code: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  expected?: string;
  format?: string;
  origin?: string;
}

const PLAIN: Record<Lang, { summary: string; required: string; number: string; text: string; choice: string; atLeast: (n: string) => string; atMost: (n: string) => string; chars: (n: string) => string; maxChars: (n: string) => string; date: string; email: string; format: string; invalid: string }> = {
  en: {
    summary: "Some fields need a change: see the messages at them.",
    required: "Please fill this in.",
    number: "Please enter a number.",
    text: "Please enter text.",
    choice: "Please choose one of the options.",
    atLeast: (n) => `Must be at least ${n}.`,
    atMost: (n) => `Must be at most ${n}.`,
    chars: (n) => `Needs at least ${n} characters.`,
    maxChars: (n) => `Can be at most ${n} characters long.`,
    date: "Please enter a date (YYYY-MM-DD).",
    email: "Please enter an e-mail address.",
    format: "This is not in the expected form.",
    invalid: "This value is not accepted.",
  },
  de: {
    summary: "Einige Felder müssen geändert werden: siehe die Hinweise dort.",
    required: "Bitte ausfüllen.",
    number: "Bitte eine Zahl eingeben.",
    text: "Bitte Text eingeben.",
    choice: "Bitte eine der Möglichkeiten wählen.",
    atLeast: (n) => `Muss mindestens ${n} sein.`,
    atMost: (n) => `Darf höchstens ${n} sein.`,
    chars: (n) => `Braucht mindestens ${n} Zeichen.`,
    maxChars: (n) => `Darf höchstens ${n} Zeichen lang sein.`,
    date: "Bitte ein Datum eingeben (JJJJ-MM-TT).",
    email: "Bitte eine E-Mail-Adresse eingeben.",
    format: "Das hat nicht die erwartete Form.",
    invalid: "Dieser Wert wird nicht angenommen.",
  },
  es: {
    summary: "Algunos campos necesitan un cambio: vea los mensajes junto a ellos.",
    required: "Rellene este campo.",
    number: "Introduzca un número.",
    text: "Introduzca un texto.",
    choice: "Elija una de las opciones.",
    atLeast: (n) => `Debe ser al menos ${n}.`,
    atMost: (n) => `Debe ser como máximo ${n}.`,
    chars: (n) => `Necesita al menos ${n} caracteres.`,
    maxChars: (n) => `Puede tener como máximo ${n} caracteres.`,
    date: "Introduzca una fecha (AAAA-MM-DD).",
    email: "Introduzca una dirección de correo electrónico.",
    format: "No tiene la forma esperada.",
    invalid: "Este valor no se acepta.",
  },
  pt: {
    summary: "Alguns campos precisam de ser alterados: veja as mensagens junto deles.",
    required: "Preencha este campo.",
    number: "Introduza um número.",
    text: "Introduza um texto.",
    choice: "Escolha uma das opções.",
    atLeast: (n) => `Tem de ser pelo menos ${n}.`,
    atMost: (n) => `Pode ser no máximo ${n}.`,
    chars: (n) => `Precisa de pelo menos ${n} caracteres.`,
    maxChars: (n) => `Pode ter no máximo ${n} caracteres.`,
    date: "Introduza uma data (AAAA-MM-DD).",
    email: "Introduza um endereço de e-mail.",
    format: "Não tem a forma esperada.",
    invalid: "Este valor não é aceite.",
  },
  fr: {
    summary: "Certains champs doivent être modifiés : voyez les messages à côté d’eux.",
    required: "Veuillez remplir ce champ.",
    number: "Veuillez saisir un nombre.",
    text: "Veuillez saisir un texte.",
    choice: "Veuillez choisir l’une des options.",
    atLeast: (n) => `Doit être au moins ${n}.`,
    atMost: (n) => `Doit être au plus ${n}.`,
    chars: (n) => `Nécessite au moins ${n} caractères.`,
    maxChars: (n) => `Peut comporter au plus ${n} caractères.`,
    date: "Veuillez saisir une date (AAAA-MM-JJ).",
    email: "Veuillez saisir une adresse e-mail.",
    format: "Ce n’est pas dans la forme attendue.",
    invalid: "Cette valeur n’est pas acceptée.",
  },
  it: {
    summary: "Alcuni campi vanno modificati: veda i messaggi accanto a essi.",
    required: "Compili questo campo.",
    number: "Inserisca un numero.",
    text: "Inserisca un testo.",
    choice: "Scelga una delle opzioni.",
    atLeast: (n) => `Deve essere almeno ${n}.`,
    atMost: (n) => `Deve essere al massimo ${n}.`,
    chars: (n) => `Servono almeno ${n} caratteri.`,
    maxChars: (n) => `Può contenere al massimo ${n} caratteri.`,
    date: "Inserisca una data (AAAA-MM-GG).",
    email: "Inserisca un indirizzo e-mail.",
    format: "Non è nella forma prevista.",
    invalid: "Questo valore non è accettato.",
  },
  nl: {
    summary: "Enkele velden moeten worden aangepast: zie de meldingen bij die velden.",
    required: "Vul dit veld in.",
    number: "Voer een getal in.",
    text: "Voer tekst in.",
    choice: "Kies een van de opties.",
    atLeast: (n) => `Moet minstens ${n} zijn.`,
    atMost: (n) => `Mag hoogstens ${n} zijn.`,
    chars: (n) => `Heeft minstens ${n} tekens nodig.`,
    maxChars: (n) => `Mag hoogstens ${n} tekens lang zijn.`,
    date: "Voer een datum in (JJJJ-MM-DD).",
    email: "Voer een e-mailadres in.",
    format: "Dit heeft niet de verwachte vorm.",
    invalid: "Deze waarde wordt niet geaccepteerd.",
  },
};

/**
 * An error in plain words of the staff's language: zod's own wording ("Too small: expected number
 * to be >=0") is the developer's; a rule's own message (a custom issue) is kept as the service wrote it.
 */
export function plainMessage(e: FieldError, lang: string): string {
  const issue = (e as FieldError & { issue?: Issue }).issue;
  // A schema's own message ("a colour as #RRGGBB") is already the owner's: only zod's defaults are reworded.
  if (!issue || !/^(Invalid|Too small|Too big)\b/.test(e.message)) return e.message;
  const p = PLAIN[(lang in PLAIN ? lang : "en") as Lang];
  const n = (v: number | bigint | undefined) => String(v);
  switch (issue.code) {
    case "invalid_type":
      if (/received undefined|received null/.test(e.message)) return p.required;
      return issue.expected === "number" || issue.expected === "int" ? p.number : issue.expected === "string" ? p.text : p.invalid;
    case "too_small":
      if (issue.origin === "string") return Number(issue.minimum) <= 1 ? p.required : p.chars(n(issue.minimum));
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") return p.atLeast(n(issue.minimum));
      return p.invalid;
    case "too_big":
      if (issue.origin === "string") return p.maxChars(n(issue.maximum));
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") return p.atMost(n(issue.maximum));
      return p.invalid;
    case "invalid_format":
      return issue.format === "email" ? p.email : issue.format === "date" ? p.date : p.format;
    case "invalid_value":
    case "invalid_union":
      return p.choice;
    default:
      return e.message;
  }
}

/** The field of a path by default: its last part (`guests.0.email` is the form's `email`). */
const lastPart = (path: string) => path.split(".").at(-1);

/**
 * A refused change (422, 409) placed at the form's fields, or null when it is not one the user can
 * fix at the form (the caller rethrows it). `place` names the field of an error's path (undefined:
 * none); where two errors land on one field the first is shown, or all with `join`.
 */
export function failureOf(err: unknown, place: (path: string) => string | undefined = lastPart, options: { join?: boolean; lang?: string } = {}): Failure | null {
  if (!(err instanceof ApiError) || (err.status !== 422 && err.status !== 409)) return null;
  const errors = (err.extra.errors ?? []) as FieldError[];
  const fields: Record<string, string> = {};
  const unplaced: string[] = [];
  const lang = options.lang ?? "en";
  for (const e of errors) {
    const field = place(e.path);
    const message = plainMessage(e, lang);
    if (field === undefined || field === "") unplaced.push(`${e.path}: ${message}`);
    else if (fields[field] === undefined) fields[field] = message;
    else if (options.join) fields[field] = `${fields[field]}; ${message}`;
  }
  // "The body is invalid: segments.0: …" is the developer's summary; the form says it plainly.
  const message = err.code === "validation_failed" ? PLAIN[(lang in PLAIN ? lang : "en") as Lang].summary : err.message;
  return { status: err.status, message, fields, unplaced, errors };
}
