/**
 * The back office's strings: the Guests screen's, in English (the source) and in German and
 * Spanish, typed by the English: a missing or misspelt key fails the build.
 */
const en = {
  guests: {
    title: "Guests",
    filters: "Filters",
    arrives: "Arrives (date or from..to)",
    departs: "Departs (date or from..to)",
    onSite: "On site at (date or from..to)",
    checkedIn: "Checked in",
    any: "Any",
    notYet: "Not yet",
    already: "Yes",
    bookingStatus: "Booking status",
    reference: "Booking number",
    sort: "Sort by",
    sortArrival: "Arrival",
    sortDeparture: "Departure",
    perPage: "Per page",
    csv: "Download CSV of this filter",
    name: "Name",
    email: "E-mail",
    booking: "Booking",
    arrival: "Arrival",
    departure: "Departure",
    status: "Checked in",
  },
};

const de: typeof en = {
  guests: {
    title: "Gäste",
    filters: "Filter",
    arrives: "Anreise (Datum oder von..bis)",
    departs: "Abreise (Datum oder von..bis)",
    onSite: "Vor Ort am (Datum oder von..bis)",
    checkedIn: "Eingecheckt",
    any: "Alle",
    notYet: "Noch nicht",
    already: "Ja",
    bookingStatus: "Buchungsstatus",
    reference: "Buchungsnummer",
    sort: "Sortieren nach",
    sortArrival: "Anreise",
    sortDeparture: "Abreise",
    perPage: "Pro Seite",
    csv: "CSV dieses Filters herunterladen",
    name: "Name",
    email: "E-Mail",
    booking: "Buchung",
    arrival: "Anreise",
    departure: "Abreise",
    status: "Eingecheckt",
  },
};

const es: typeof en = {
  guests: {
    title: "Huéspedes",
    filters: "Filtros",
    arrives: "Llega (fecha o desde..hasta)",
    departs: "Sale (fecha o desde..hasta)",
    onSite: "Presente el (fecha o desde..hasta)",
    checkedIn: "Entrada registrada",
    any: "Todos",
    notYet: "Aún no",
    already: "Sí",
    bookingStatus: "Estado de la reserva",
    reference: "Número de reserva",
    sort: "Ordenar por",
    sortArrival: "Llegada",
    sortDeparture: "Salida",
    perPage: "Por página",
    csv: "Descargar CSV de este filtro",
    name: "Nombre",
    email: "Correo",
    booking: "Reserva",
    arrival: "Llegada",
    departure: "Salida",
    status: "Entrada",
  },
};

export const guestsStrings = { en, de, es };
