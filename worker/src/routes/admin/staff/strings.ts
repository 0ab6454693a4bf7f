/**
 * The back office's strings: the Staff screen's, in English (the source) and in German and
 * Spanish, typed by the English: a missing or misspelt key fails the build.
 */
const en = {
  staff: {
    title: "Staff",
    email: "E-mail",
    name: "Name",
    role: "Role",
    status: "Status",
    pending: (until: string) => `Invited, link valid until ${until}`,
    activeSessions: (n: number) => `${n} open session(s)`,
    invite: "Invite",
    inviteTitle: "Invite someone",
    inviteEmailed: (email: string) => `An e-mail with this link is on its way to ${email}.`,
    inviteLink: "Send this sign-in link to the person you invited. It works once and expires:",
    changeRole: "Change role",
    remove: "Remove",
    removeConfirm: "Yes, remove",
    removed: "Removed; their sessions ended.",
    roleChanged: "Role changed.",
    you: "you",
    roleHelp: "Owner: everything. Manager: catalog, prices, settings and bookings, not staff or keys. Front desk: bookings, guests, check-in and check-out.",
  },
};

const de: typeof en = {
  staff: {
    title: "Team",
    email: "E-Mail",
    name: "Name",
    role: "Rolle",
    status: "Status",
    pending: (until) => `Eingeladen, Link gültig bis ${until}`,
    activeSessions: (n) => `${n} offene Sitzung(en)`,
    invite: "Einladen",
    inviteTitle: "Jemanden einladen",
    inviteEmailed: (email: string) => `Eine E-Mail mit diesem Link ist unterwegs an ${email}.`,
    inviteLink: "Senden Sie diesen Anmeldelink an die eingeladene Person. Er funktioniert einmal und läuft ab:",
    changeRole: "Rolle ändern",
    remove: "Entfernen",
    removeConfirm: "Ja, entfernen",
    removed: "Entfernt; die Sitzungen wurden beendet.",
    roleChanged: "Rolle geändert.",
    you: "Sie",
    roleHelp: "Inhaber: alles. Leitung: Katalog, Preise, Einstellungen und Buchungen, nicht Team oder Schlüssel. Rezeption: Buchungen, Gäste, Ein- und Auschecken.",
  },
};

const es: typeof en = {
  staff: {
    title: "Equipo",
    email: "Correo",
    name: "Nombre",
    role: "Rol",
    status: "Estado",
    pending: (until) => `Invitado, enlace válido hasta ${until}`,
    activeSessions: (n) => `${n} sesión(es) abierta(s)`,
    invite: "Invitar",
    inviteTitle: "Invitar a alguien",
    inviteEmailed: (email: string) => `Un correo con este enlace va de camino a ${email}.`,
    inviteLink: "Envíe este enlace de acceso a la persona invitada. Funciona una vez y caduca:",
    changeRole: "Cambiar rol",
    remove: "Quitar",
    removeConfirm: "Sí, quitar",
    removed: "Quitado; sus sesiones terminaron.",
    roleChanged: "Rol cambiado.",
    you: "usted",
    roleHelp: "Propietario: todo. Gerente: catálogo, precios, ajustes y reservas, no equipo ni claves. Recepción: reservas, huéspedes, entradas y salidas.",
  },
};

export const staffStrings = { en, de, es };
