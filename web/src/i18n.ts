import { signal } from './signal';

/** The desk's words in English, Czech and Polish; the browser's language first, switchable, remembered. */

const en = {
  'app.title': 'packdesk',
  'nav.ship': 'Ship', 'nav.shipments': 'Shipments', 'nav.printers': 'Printers', 'nav.imports': 'Imports', 'nav.signOut': 'Sign out',
  'desk.readOnly': 'Read-only desk: you can look, not change.',
  'desk.offline': 'packdesk is not answering; trying again… Nothing you typed is lost.',
  'signIn.title': 'Sign in to the desk', 'signIn.key': 'API key', 'signIn.submit': 'Sign in',
  'signIn.hint': 'The key stays with packdesk: this browser keeps only a session for 12 hours.',
  'signIn.linkExpired': 'That sign-in link was used already or has expired. Run packdesk desk again, or sign in with a key.',
  'ship.title': 'New shipment', 'ship.reference': 'Order reference', 'ship.referenceHint': 'Scan or type; Enter fills a known order',
  'ship.filledFrom': 'Filled from shipment {ref} ({date}).', 'ship.notFound': 'No earlier order {ref}: fill it in.',
  'ship.shippedBefore': 'Order {ref} was shipped before ({status}). Ship it again?',
  'ship.channel': 'Channel', 'ship.recipient': 'Recipient', 'ship.address': 'Delivery address', 'ship.sender': 'Sender and pickup address',
  'ship.firstName': 'First name', 'ship.lastName': 'Last name', 'ship.company': 'Company', 'ship.email': 'E-mail', 'ship.phone': 'Phone',
  'ship.street': 'Street', 'ship.house': 'House number', 'ship.city': 'City', 'ship.postal': 'Postal code', 'ship.country': 'Country',
  'ship.parcels': 'Parcels', 'ship.weight': 'Weight (kg)', 'ship.length': 'Length (cm)', 'ship.width': 'Width (cm)', 'ship.height': 'Height (cm)',
  'ship.addParcel': 'Add parcel', 'ship.removeParcel': 'Remove',
  'ship.cod': 'Cash on delivery', 'ship.codAmount': 'Amount', 'ship.codCurrency': 'Currency',
  'ship.format': 'Label format', 'ship.printOnCreate': 'Print on create', 'ship.printer': 'Printer', 'ship.copies': 'Copies',
  'ship.submit': 'Ship', 'ship.working': 'The carrier is creating the shipment…', 'ship.created': 'Created: {numbers}',
  'ship.pending': 'Still waiting for the carrier; the shipment is kept and retried.', 'ship.refused': 'The carrier refused it: {message}',
  'ship.invalid': 'Please check the marked fields.', 'ship.another': 'Next order',
  'label.preview': 'Label', 'label.parcel': 'Parcel {n}', 'label.print': 'Print', 'label.printed': 'Sent to {printer} ({copies}×).',
  'label.noPrinter': 'No printer takes {format} labels: add one under Printers.', 'label.download': 'Download {format}',
  'shipments.title': 'Shipments', 'shipments.search': 'Reference or tracking number', 'shipments.allStatuses': 'All statuses',
  'shipments.allChannels': 'All channels', 'shipments.none': 'No shipments match.', 'shipments.reference': 'Reference',
  'shipments.status': 'Status', 'shipments.created': 'Created', 'shipments.prev': 'Previous', 'shipments.next': 'Next', 'shipments.page': 'Page {page} of {pages}',
  'shipment.parcels': 'Parcels', 'shipment.tracking': 'Tracking', 'shipment.noTracking': 'No tracking updates yet.',
  'shipment.cancel': 'Cancel shipment', 'shipment.cancelConfirm': 'Cancel this shipment at the carrier?', 'shipment.retry': 'Retry',
  'shipment.reprint': 'Reprint', 'shipment.failure': 'Not created: {message}', 'shipment.back': 'Back to shipments',
  'printers.title': 'Printers and print queue', 'printers.none': 'No printers yet: add one with packdesk printers add.',
  'printers.test': 'Test print', 'printers.queue': 'Queue', 'printers.noJobs': 'Nothing queued.', 'printers.retry': 'Retry',
  'printers.lastSeen': 'Last seen {at}',
  'state.ready': 'Ready', 'state.offline': 'Offline', 'state.unknown': 'Unknown', 'state.paper_out': 'Paper out', 'state.head_open': 'Head open', 'state.paused': 'Paused',
  'imports.title': 'Watched folders and imports', 'imports.none': 'No watched folders: add one with packdesk watch add.',
  'imports.file': 'File', 'imports.rows': 'Rows', 'imports.created': 'Shipments created', 'imports.refused': 'Refused by the carrier',
  'imports.invalid': 'Invalid orders', 'imports.queued': 'Queued for packing', 'imports.awaiting': 'waiting for the carrier: {n}',
  'imports.failedRows': 'Failed rows: {n}', 'imports.noImports': 'No imports yet.',
  'imports.errors': 'Failed rows of {file}', 'imports.row': 'Row',
  'status.pending': 'Pending', 'status.created': 'Created', 'status.shipped': 'Shipped', 'status.delivered': 'Delivered',
  'status.cancelled': 'Cancelled', 'status.returned': 'Returned', 'status.queued': 'Queued', 'status.printing': 'Printing',
  'status.printed': 'Printed', 'status.failed': 'Failed', 'status.processing': 'Reading', 'status.done': 'Done',
  'status.active': 'Active', 'status.paused': 'Paused',
  'status.not_recognized': 'Not recognised', 'status.waiting_for_shipment': 'Awaiting pickup', 'status.in_transit': 'In transit',
  'status.out_for_delivery': 'Out for delivery', 'status.ready_for_pickup': 'Ready for pickup', 'status.on_hold': 'On hold',
  'status.delivered_with_exception': 'Delivered with exception', 'status.error': 'Error',
};

type Key = keyof typeof en;
type Words = Record<Key, string>;

const cs: Words = {
  'app.title': 'packdesk',
  'nav.ship': 'Odeslat', 'nav.shipments': 'Zásilky', 'nav.printers': 'Tiskárny', 'nav.imports': 'Importy', 'nav.signOut': 'Odhlásit',
  'desk.readOnly': 'Pult jen pro čtení: můžete prohlížet, ne měnit.',
  'desk.offline': 'packdesk neodpovídá; zkouším znovu… Nic z vyplněného se neztratí.',
  'signIn.title': 'Přihlášení k pultu', 'signIn.key': 'API klíč', 'signIn.submit': 'Přihlásit',
  'signIn.hint': 'Klíč zůstává v packdesku: prohlížeč si drží jen relaci na 12 hodin.',
  'signIn.linkExpired': 'Přihlašovací odkaz už byl použit nebo vypršel. Spusťte znovu packdesk desk, nebo se přihlaste klíčem.',
  'ship.title': 'Nová zásilka', 'ship.reference': 'Číslo objednávky', 'ship.referenceHint': 'Naskenujte nebo napište; Enter doplní známou objednávku',
  'ship.filledFrom': 'Doplněno ze zásilky {ref} ({date}).', 'ship.notFound': 'Objednávka {ref} zatím nebyla: vyplňte ji.',
  'ship.shippedBefore': 'Objednávka {ref} už byla odeslána ({status}). Odeslat znovu?',
  'ship.channel': 'Kanál', 'ship.recipient': 'Příjemce', 'ship.address': 'Doručovací adresa', 'ship.sender': 'Odesílatel a adresa vyzvednutí',
  'ship.firstName': 'Jméno', 'ship.lastName': 'Příjmení', 'ship.company': 'Firma', 'ship.email': 'E-mail', 'ship.phone': 'Telefon',
  'ship.street': 'Ulice', 'ship.house': 'Číslo domu', 'ship.city': 'Město', 'ship.postal': 'PSČ', 'ship.country': 'Země',
  'ship.parcels': 'Balíky', 'ship.weight': 'Hmotnost (kg)', 'ship.length': 'Délka (cm)', 'ship.width': 'Šířka (cm)', 'ship.height': 'Výška (cm)',
  'ship.addParcel': 'Přidat balík', 'ship.removeParcel': 'Odebrat',
  'ship.cod': 'Dobírka', 'ship.codAmount': 'Částka', 'ship.codCurrency': 'Měna',
  'ship.format': 'Formát štítku', 'ship.printOnCreate': 'Tisknout po vytvoření', 'ship.printer': 'Tiskárna', 'ship.copies': 'Kopie',
  'ship.submit': 'Odeslat', 'ship.working': 'Dopravce zásilku vytváří…', 'ship.created': 'Vytvořeno: {numbers}',
  'ship.pending': 'Stále čekáme na dopravce; zásilka je uložena a zkouší se znovu.', 'ship.refused': 'Dopravce ji odmítl: {message}',
  'ship.invalid': 'Zkontrolujte prosím označená pole.', 'ship.another': 'Další objednávka',
  'label.preview': 'Štítek', 'label.parcel': 'Balík {n}', 'label.print': 'Tisknout', 'label.printed': 'Posláno na {printer} ({copies}×).',
  'label.noPrinter': 'Žádná tiskárna netiskne štítky {format}: přidejte ji v Tiskárnách.', 'label.download': 'Stáhnout {format}',
  'shipments.title': 'Zásilky', 'shipments.search': 'Objednávka nebo číslo zásilky', 'shipments.allStatuses': 'Všechny stavy',
  'shipments.allChannels': 'Všechny kanály', 'shipments.none': 'Žádné zásilky neodpovídají.', 'shipments.reference': 'Objednávka',
  'shipments.status': 'Stav', 'shipments.created': 'Vytvořeno', 'shipments.prev': 'Předchozí', 'shipments.next': 'Další', 'shipments.page': 'Strana {page} z {pages}',
  'shipment.parcels': 'Balíky', 'shipment.tracking': 'Sledování', 'shipment.noTracking': 'Zatím žádné události.',
  'shipment.cancel': 'Zrušit zásilku', 'shipment.cancelConfirm': 'Zrušit tuto zásilku u dopravce?', 'shipment.retry': 'Zkusit znovu',
  'shipment.reprint': 'Vytisknout znovu', 'shipment.failure': 'Nevytvořeno: {message}', 'shipment.back': 'Zpět na zásilky',
  'printers.title': 'Tiskárny a tisková fronta', 'printers.none': 'Zatím žádné tiskárny: přidejte je příkazem packdesk printers add.',
  'printers.test': 'Zkušební tisk', 'printers.queue': 'Fronta', 'printers.noJobs': 'Nic ve frontě.', 'printers.retry': 'Zkusit znovu',
  'printers.lastSeen': 'Naposledy {at}',
  'state.ready': 'Připravena', 'state.offline': 'Nedostupná', 'state.unknown': 'Neznámý stav', 'state.paper_out': 'Došel papír', 'state.head_open': 'Otevřená hlava', 'state.paused': 'Pozastavena',
  'imports.title': 'Sledované složky a importy', 'imports.none': 'Žádné sledované složky: přidejte je příkazem packdesk watch add.',
  'imports.file': 'Soubor', 'imports.rows': 'Řádky', 'imports.created': 'Vytvořené zásilky', 'imports.refused': 'Odmítnuto dopravcem',
  'imports.invalid': 'Chybné objednávky', 'imports.queued': 'Ve frontě k balení', 'imports.awaiting': 'čeká na dopravce: {n}',
  'imports.failedRows': 'Chybné řádky: {n}', 'imports.noImports': 'Zatím žádné importy.',
  'imports.errors': 'Chybné řádky souboru {file}', 'imports.row': 'Řádek',
  'status.pending': 'Čeká', 'status.created': 'Vytvořena', 'status.shipped': 'Na cestě', 'status.delivered': 'Doručena',
  'status.cancelled': 'Zrušena', 'status.returned': 'Vrácena', 'status.queued': 'Ve frontě', 'status.printing': 'Tiskne se',
  'status.printed': 'Vytištěno', 'status.failed': 'Selhalo', 'status.processing': 'Načítá se', 'status.done': 'Hotovo',
  'status.active': 'Aktivní', 'status.paused': 'Pozastaveno',
  'status.not_recognized': 'Nerozpoznána', 'status.waiting_for_shipment': 'Čeká na převzetí', 'status.in_transit': 'V přepravě',
  'status.out_for_delivery': 'Na cestě k příjemci', 'status.ready_for_pickup': 'K vyzvednutí', 'status.on_hold': 'Pozdržena',
  'status.delivered_with_exception': 'Doručena s výhradou', 'status.error': 'Chyba',
};

const pl: Words = {
  'app.title': 'packdesk',
  'nav.ship': 'Nadaj', 'nav.shipments': 'Przesyłki', 'nav.printers': 'Drukarki', 'nav.imports': 'Importy', 'nav.signOut': 'Wyloguj',
  'desk.readOnly': 'Stanowisko tylko do odczytu: można przeglądać, nie zmieniać.',
  'desk.offline': 'packdesk nie odpowiada; próbuję ponownie… Nic, co wpisano, nie zginie.',
  'signIn.title': 'Logowanie do stanowiska', 'signIn.key': 'Klucz API', 'signIn.submit': 'Zaloguj',
  'signIn.hint': 'Klucz zostaje w packdesku: przeglądarka trzyma tylko sesję na 12 godzin.',
  'signIn.linkExpired': 'Link logowania został już użyty lub wygasł. Uruchom ponownie packdesk desk albo zaloguj się kluczem.',
  'ship.title': 'Nowa przesyłka', 'ship.reference': 'Numer zamówienia', 'ship.referenceHint': 'Zeskanuj lub wpisz; Enter uzupełni znane zamówienie',
  'ship.filledFrom': 'Uzupełniono z przesyłki {ref} ({date}).', 'ship.notFound': 'Nie było jeszcze zamówienia {ref}: uzupełnij je.',
  'ship.shippedBefore': 'Zamówienie {ref} zostało już nadane ({status}). Nadać ponownie?',
  'ship.channel': 'Kanał', 'ship.recipient': 'Odbiorca', 'ship.address': 'Adres doręczenia', 'ship.sender': 'Nadawca i adres odbioru',
  'ship.firstName': 'Imię', 'ship.lastName': 'Nazwisko', 'ship.company': 'Firma', 'ship.email': 'E-mail', 'ship.phone': 'Telefon',
  'ship.street': 'Ulica', 'ship.house': 'Numer domu', 'ship.city': 'Miasto', 'ship.postal': 'Kod pocztowy', 'ship.country': 'Kraj',
  'ship.parcels': 'Paczki', 'ship.weight': 'Waga (kg)', 'ship.length': 'Długość (cm)', 'ship.width': 'Szerokość (cm)', 'ship.height': 'Wysokość (cm)',
  'ship.addParcel': 'Dodaj paczkę', 'ship.removeParcel': 'Usuń',
  'ship.cod': 'Pobranie', 'ship.codAmount': 'Kwota', 'ship.codCurrency': 'Waluta',
  'ship.format': 'Format etykiety', 'ship.printOnCreate': 'Drukuj po utworzeniu', 'ship.printer': 'Drukarka', 'ship.copies': 'Kopie',
  'ship.submit': 'Nadaj', 'ship.working': 'Przewoźnik tworzy przesyłkę…', 'ship.created': 'Utworzono: {numbers}',
  'ship.pending': 'Wciąż czekamy na przewoźnika; przesyłka jest zapisana i ponawiana.', 'ship.refused': 'Przewoźnik odmówił: {message}',
  'ship.invalid': 'Sprawdź zaznaczone pola.', 'ship.another': 'Następne zamówienie',
  'label.preview': 'Etykieta', 'label.parcel': 'Paczka {n}', 'label.print': 'Drukuj', 'label.printed': 'Wysłano do {printer} ({copies}×).',
  'label.noPrinter': 'Żadna drukarka nie drukuje etykiet {format}: dodaj ją w Drukarkach.', 'label.download': 'Pobierz {format}',
  'shipments.title': 'Przesyłki', 'shipments.search': 'Zamówienie lub numer przesyłki', 'shipments.allStatuses': 'Wszystkie statusy',
  'shipments.allChannels': 'Wszystkie kanały', 'shipments.none': 'Brak pasujących przesyłek.', 'shipments.reference': 'Zamówienie',
  'shipments.status': 'Status', 'shipments.created': 'Utworzono', 'shipments.prev': 'Poprzednia', 'shipments.next': 'Następna', 'shipments.page': 'Strona {page} z {pages}',
  'shipment.parcels': 'Paczki', 'shipment.tracking': 'Śledzenie', 'shipment.noTracking': 'Brak zdarzeń.',
  'shipment.cancel': 'Anuluj przesyłkę', 'shipment.cancelConfirm': 'Anulować tę przesyłkę u przewoźnika?', 'shipment.retry': 'Ponów',
  'shipment.reprint': 'Drukuj ponownie', 'shipment.failure': 'Nie utworzono: {message}', 'shipment.back': 'Wróć do przesyłek',
  'printers.title': 'Drukarki i kolejka wydruku', 'printers.none': 'Brak drukarek: dodaj je poleceniem packdesk printers add.',
  'printers.test': 'Wydruk próbny', 'printers.queue': 'Kolejka', 'printers.noJobs': 'Kolejka jest pusta.', 'printers.retry': 'Ponów',
  'printers.lastSeen': 'Ostatnio {at}',
  'state.ready': 'Gotowa', 'state.offline': 'Niedostępna', 'state.unknown': 'Stan nieznany', 'state.paper_out': 'Brak papieru', 'state.head_open': 'Otwarta głowica', 'state.paused': 'Wstrzymana',
  'imports.title': 'Obserwowane foldery i importy', 'imports.none': 'Brak obserwowanych folderów: dodaj je poleceniem packdesk watch add.',
  'imports.file': 'Plik', 'imports.rows': 'Wiersze', 'imports.created': 'Utworzone przesyłki', 'imports.refused': 'Odrzucone przez przewoźnika',
  'imports.invalid': 'Błędne zamówienia', 'imports.queued': 'W kolejce do pakowania', 'imports.awaiting': 'czeka na przewoźnika: {n}',
  'imports.failedRows': 'Błędne wiersze: {n}', 'imports.noImports': 'Brak importów.',
  'imports.errors': 'Błędne wiersze pliku {file}', 'imports.row': 'Wiersz',
  'status.pending': 'Oczekuje', 'status.created': 'Utworzona', 'status.shipped': 'W drodze', 'status.delivered': 'Doręczona',
  'status.cancelled': 'Anulowana', 'status.returned': 'Zwrócona', 'status.queued': 'W kolejce', 'status.printing': 'Drukuje się',
  'status.printed': 'Wydrukowano', 'status.failed': 'Błąd', 'status.processing': 'Wczytywanie', 'status.done': 'Gotowe',
  'status.active': 'Aktywny', 'status.paused': 'Wstrzymany',
  'status.not_recognized': 'Nierozpoznana', 'status.waiting_for_shipment': 'Czeka na odbiór', 'status.in_transit': 'W transporcie',
  'status.out_for_delivery': 'W doręczeniu', 'status.ready_for_pickup': 'Do odbioru', 'status.on_hold': 'Wstrzymana',
  'status.delivered_with_exception': 'Doręczona z zastrzeżeniem', 'status.error': 'Błąd',
};

export const LANGUAGES = { en: 'English', cs: 'Čeština', pl: 'Polski' } as const;
export type Language = keyof typeof LANGUAGES;
const WORDS: Record<Language, Words> = { en, cs, pl };

function initialLanguage(): Language {
  const kept = localStorage.getItem('packdesk.language');
  if (kept && kept in LANGUAGES) return kept as Language;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.slice(0, 2).toLowerCase();
    if (base in LANGUAGES) return base as Language;
  }
  return 'en';
}

export const language = signal<Language>(initialLanguage());

export function setLanguage(next: Language): void {
  localStorage.setItem('packdesk.language', next);
  document.documentElement.lang = next;
  language.set(next);
}

/** The phrase for `key` in the desk's language, with `{name}` filled from `params`. */
export function t(key: Key, params: Record<string, string | number> = {}): string {
  return WORDS[language.get()][key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** A status word, or the status itself when it has none. */
export function statusWord(status: string): string {
  const key = `status.${status}` as Key;
  return key in en ? t(key) : status;
}

export type { Key as WordKey };
