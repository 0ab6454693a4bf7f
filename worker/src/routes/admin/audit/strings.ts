/**
 * The back office's strings: the Audit log's, in English (the source) and in German, Spanish,
 * Portuguese, French, Italian and Dutch, typed by the English: a missing or misspelt key fails
 * the build.
 */
const en = {
  audit: {
    title: "Audit log",
    at: "When",
    who: "Who",
    what: "What",
    entity: "Kind",
    all: "All",
    changes: "Before → after",
  },
};

const de: typeof en = {
  audit: {
    title: "Änderungsprotokoll",
    at: "Wann",
    who: "Wer",
    what: "Was",
    entity: "Art",
    all: "Alle",
    changes: "Vorher → nachher",
  },
};

const es: typeof en = {
  audit: {
    title: "Registro de cambios",
    at: "Cuándo",
    who: "Quién",
    what: "Qué",
    entity: "Tipo",
    all: "Todos",
    changes: "Antes → después",
  },
};

const pt: typeof en = {
  audit: {
    title: "Registo de alterações",
    at: "Quando",
    who: "Quem",
    what: "O quê",
    entity: "Tipo",
    all: "Todos",
    changes: "Antes → depois",
  },
};

const fr: typeof en = {
  audit: {
    title: "Journal des modifications",
    at: "Quand",
    who: "Qui",
    what: "Quoi",
    entity: "Type",
    all: "Tous",
    changes: "Avant → après",
  },
};

const it: typeof en = {
  audit: {
    title: "Registro delle modifiche",
    at: "Quando",
    who: "Chi",
    what: "Cosa",
    entity: "Tipo",
    all: "Tutti",
    changes: "Prima → dopo",
  },
};

const nl: typeof en = {
  audit: {
    title: "Wijzigingslogboek",
    at: "Wanneer",
    who: "Wie",
    what: "Wat",
    entity: "Soort",
    all: "Alle",
    changes: "Voor → na",
  },
};

export const auditStrings = { en, de, es, pt, fr, it, nl };
