/**
 * The back office's strings: the Staff screen's, in English (the source) and in German,
 * Spanish, Portuguese, French, Italian and Dutch, typed by the English: a missing or misspelt key
 * fails the build.
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

const pt: typeof en = {
  staff: {
    title: "Equipa",
    email: "E-mail",
    name: "Nome",
    role: "Função",
    status: "Estado",
    pending: (until) => `Convidado, ligação válida até ${until}`,
    activeSessions: (n) => `${n} sessão(ões) aberta(s)`,
    invite: "Convidar",
    inviteTitle: "Convidar alguém",
    inviteEmailed: (email: string) => `Um e-mail com esta ligação está a caminho de ${email}.`,
    inviteLink: "Envie esta ligação de início de sessão à pessoa convidada. Funciona uma vez e expira:",
    changeRole: "Alterar função",
    remove: "Remover",
    removeConfirm: "Sim, remover",
    removed: "Removido; as sessões foram terminadas.",
    roleChanged: "Função alterada.",
    you: "a sua conta",
    roleHelp: "Proprietário: tudo. Gestor: catálogo, preços, definições e reservas, não a equipa nem as chaves. Receção: reservas, hóspedes, check-in e check-out.",
  },
};

const fr: typeof en = {
  staff: {
    title: "Équipe",
    email: "E-mail",
    name: "Nom",
    role: "Rôle",
    status: "Statut",
    pending: (until) => `Invité, lien valable jusqu’au ${until}`,
    activeSessions: (n) => `${n} session(s) ouverte(s)`,
    invite: "Inviter",
    inviteTitle: "Inviter quelqu’un",
    inviteEmailed: (email: string) => `Un e-mail contenant ce lien est en route vers ${email}.`,
    inviteLink: "Envoyez ce lien de connexion à la personne invitée. Il fonctionne une fois et expire :",
    changeRole: "Changer de rôle",
    remove: "Retirer",
    removeConfirm: "Oui, retirer",
    removed: "Retiré ; ses sessions ont été fermées.",
    roleChanged: "Rôle modifié.",
    you: "vous",
    roleHelp: "Propriétaire : tout. Gérant : catalogue, prix, paramètres et réservations, mais ni l’équipe ni les clés. Réception : réservations, clients, arrivées et départs.",
  },
};

const it: typeof en = {
  staff: {
    title: "Personale",
    email: "E-mail",
    name: "Nome",
    role: "Ruolo",
    status: "Stato",
    pending: (until) => `Invitato, link valido fino al ${until}`,
    activeSessions: (n) => `${n} sessione/i aperta/e`,
    invite: "Invita",
    inviteTitle: "Invitare qualcuno",
    inviteEmailed: (email: string) => `Un’e-mail con questo link è in viaggio verso ${email}.`,
    inviteLink: "Invii questo link di accesso alla persona invitata. Funziona una volta sola e scade:",
    changeRole: "Cambia ruolo",
    remove: "Rimuovi",
    removeConfirm: "Sì, rimuovi",
    removed: "Rimosso; le sue sessioni sono state chiuse.",
    roleChanged: "Ruolo cambiato.",
    you: "Lei",
    roleHelp: "Titolare: tutto. Responsabile: catalogo, prezzi, impostazioni e prenotazioni, non il personale né le chiavi. Reception: prenotazioni, ospiti, check-in e check-out.",
  },
};

const nl: typeof en = {
  staff: {
    title: "Team",
    email: "E-mail",
    name: "Naam",
    role: "Rol",
    status: "Status",
    pending: (until) => `Uitgenodigd, link geldig tot ${until}`,
    activeSessions: (n) => `${n} open sessie(s)`,
    invite: "Uitnodigen",
    inviteTitle: "Iemand uitnodigen",
    inviteEmailed: (email: string) => `Er is een e-mail met deze link onderweg naar ${email}.`,
    inviteLink: "Stuur deze inloglink naar de persoon die u hebt uitgenodigd. Hij werkt één keer en verloopt:",
    changeRole: "Rol wijzigen",
    remove: "Verwijderen",
    removeConfirm: "Ja, verwijderen",
    removed: "Verwijderd; de sessies zijn beëindigd.",
    roleChanged: "Rol gewijzigd.",
    you: "u",
    roleHelp: "Eigenaar: alles. Manager: catalogus, prijzen, instellingen en boekingen, niet het team of de sleutels. Receptie: boekingen, gasten, in- en uitchecken.",
  },
};

export const staffStrings = { en, de, es, pt, fr, it, nl };
