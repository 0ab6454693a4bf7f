/**
 * The back office's strings: the Audit log's, in English (the source) and in German and Spanish,
 * typed by the English: a missing or misspelt key fails the build.
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

export const auditStrings = { en, de, es };
