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
  'ship.reference': 'Order reference', 'ship.referenceHint': 'Scan or type; Enter fills a known order',
  'ship.filledFrom': 'Filled from shipment {ref} ({date}).', 'ship.notFound': 'No earlier order {ref}: fill it in.',
  'ship.shippedBefore': 'Order {ref} was shipped before ({status}). Ship it again?',
  'ship.channel': 'Channel', 'ship.recipient': 'Recipient', 'ship.sender': 'Sender and pickup address',
  'ship.firstName': 'First name', 'ship.lastName': 'Last name', 'ship.company': 'Company', 'ship.email': 'E-mail', 'ship.phone': 'Phone',
  'ship.street': 'Street', 'ship.house': 'House number', 'ship.city': 'City', 'ship.postal': 'Postal code', 'ship.country': 'Country',
  'ship.parcels': 'Parcels', 'ship.weight': 'Weight (kg)', 'ship.length': 'Length (cm)', 'ship.width': 'Width (cm)', 'ship.height': 'Height (cm)',
  'ship.cod': 'Cash on delivery', 'ship.codAmount': 'Amount', 'ship.codCurrency': 'Currency',
  'ship.format': 'Label format', 'ship.printer': 'Printer', 'ship.copies': 'Copies',
  'ship.submit': 'Ship', 'ship.working': 'The carrier is creating the shipment…', 'ship.created': 'Created: {numbers}',
  'ship.pending': 'Still waiting for the carrier; the shipment is kept and retried.', 'ship.refused': 'The carrier refused it: {message}',
  'ship.invalid': 'Please check the marked fields.',
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
  'nav.station': 'Station',
  'ship.fromOrder': 'Order {ref} from the queue: weigh it and press Enter.',
  'ship.refusedBefore': 'The carrier refused order {ref}: fix the marked fields and press Enter.',
  'ship.scanFirst': 'Scan an order reference to start.', 'ship.shortcut': 'Enter in the weight, F9 or Ctrl+Enter',
  'ship.edit': 'Edit', 'ship.done': 'Done', 'ship.apartment': 'Apartment',
  'ship.parcelCount': 'Parcels', 'ship.parcelsHint': 'Enter in the last weight ships', 'ship.box': 'Box', 'ship.noBoxes': 'No boxes',
  'ship.resubmit': 'Send corrected', 'ship.fixHint': 'Fix the marked fields and press Enter or F9: the same shipment goes to the carrier again.',
  'ship.noSender': 'This station has no sender yet: set it under', 'ship.stationPrints': 'Station {station}: {format} labels print on {printer}.',
  'ship.stationManual': 'Station {station}: {format} labels; auto-print is off.',
  'ship.stationNoPrinter': 'Station {station}: auto-print is on, but no printer takes {format} labels.',
  'print.printedOn': 'Printed on {printer}', 'print.printingOn': 'Printing on {printer}…', 'print.queuedOn': 'Queued on {printer}',
  'print.held': '{printer}: {problem}; the job is queued', 'print.failedOn': 'Not printed on {printer}: {error}',
  'print.notPrinted': 'Not printed: {reason}', 'print.notAsked': 'Not printed: auto-print is off.',
  'printers.labels': '{n} labels', 'shipment.trackingNumber': 'Tracking number',
  'shipments.destination': 'Destination', 'shipments.carrier': 'Carrier', 'shipments.printed': 'Printed', 'shipments.from': 'From', 'shipments.to': 'To',
  'shipments.exportCsv': 'Export CSV', 'shipments.selected': '{n} selected', 'shipments.printLabels': 'Print labels', 'shipments.downloadPdf': 'Download PDF',
  'shipments.clearSelection': 'Clear', 'shipments.selectPage': 'Select all on this page', 'shipments.total': '{n} shipments',
  'shipments.printQueued': '{n} labels sent as {jobs} print job(s): {where}.',
  'status.needs_attention': 'Needs attention',
  'station.title': 'Station {station}', 'station.hint': "Every station starts from the account's settings; a station's own value wins. Empty fields inherit.",
  'station.thisStation': 'This station ({station})', 'station.account': 'All stations (account)', 'station.shipping': 'Shipping and printing',
  'station.autoPrint': 'Print on create', 'station.on': 'On', 'station.off': 'Off',
  'station.printer.pdf': 'PDF printer', 'station.printer.zpl': 'ZPL printer', 'station.printer.epl': 'EPL printer',
  'station.boxes': 'Box presets', 'station.ownBoxes': 'Own box presets at this station', 'station.box.name': 'Name', 'station.box.length': 'Length (cm)',
  'station.box.width': 'Width (cm)', 'station.box.height': 'Height (cm)', 'station.box.weight': 'Usual weight (kg)', 'station.addBox': 'Add box', 'station.removeBox': 'Remove',
  'station.save': 'Save', 'station.saved': 'Saved.', 'station.fromAccount': 'From the account: {value}', 'station.default': 'Default: {value}', 'station.none': 'None',
  'problem.paper_out': 'paper out', 'problem.head_open': 'print head open', 'problem.ribbon_out': 'ribbon out', 'problem.paused': 'paused',
  'problem.head_too_hot': 'print head too hot', 'problem.head_too_cold': 'print head too cold', 'problem.corrupt_ram': 'memory corrupt',
  'problem.unreachable': 'unreachable', 'problem.no_status_answer': 'no answer to the status query', 'problem.stopped': 'stopped',
  'problem.not-accepting-jobs': 'not accepting jobs', 'problem.media-empty': 'paper out', 'problem.media-needed': 'paper needed', 'problem.media-jam': 'paper jam',
  'problem.cover-open': 'cover open', 'problem.door-open': 'door open', 'problem.interlock-open': 'interlock open',
  'problem.input-tray-missing': 'input tray missing', 'problem.output-tray-missing': 'output tray missing', 'problem.output-area-full': 'output tray full',
  'problem.marker-supply-empty': 'ink or toner empty', 'problem.toner-empty': 'toner empty', 'problem.offline': 'offline', 'problem.shutdown': 'shut down',
  'problem.spool-area-full': 'spool full', 'problem.stopped-partly': 'partly stopped', 'problem.stopping': 'stopping', 'problem.timed-out': 'timed out',
  'problem.connecting-to-device-error': 'cannot connect to the device',
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
  'ship.reference': 'Číslo objednávky', 'ship.referenceHint': 'Naskenujte nebo napište; Enter doplní známou objednávku',
  'ship.filledFrom': 'Doplněno ze zásilky {ref} ({date}).', 'ship.notFound': 'Objednávka {ref} zatím nebyla: vyplňte ji.',
  'ship.shippedBefore': 'Objednávka {ref} už byla odeslána ({status}). Odeslat znovu?',
  'ship.channel': 'Kanál', 'ship.recipient': 'Příjemce', 'ship.sender': 'Odesílatel a adresa vyzvednutí',
  'ship.firstName': 'Jméno', 'ship.lastName': 'Příjmení', 'ship.company': 'Firma', 'ship.email': 'E-mail', 'ship.phone': 'Telefon',
  'ship.street': 'Ulice', 'ship.house': 'Číslo domu', 'ship.city': 'Město', 'ship.postal': 'PSČ', 'ship.country': 'Země',
  'ship.parcels': 'Balíky', 'ship.weight': 'Hmotnost (kg)', 'ship.length': 'Délka (cm)', 'ship.width': 'Šířka (cm)', 'ship.height': 'Výška (cm)',
  'ship.cod': 'Dobírka', 'ship.codAmount': 'Částka', 'ship.codCurrency': 'Měna',
  'ship.format': 'Formát štítku', 'ship.printer': 'Tiskárna', 'ship.copies': 'Kopie',
  'ship.submit': 'Odeslat', 'ship.working': 'Dopravce zásilku vytváří…', 'ship.created': 'Vytvořeno: {numbers}',
  'ship.pending': 'Stále čekáme na dopravce; zásilka je uložena a zkouší se znovu.', 'ship.refused': 'Dopravce ji odmítl: {message}',
  'ship.invalid': 'Zkontrolujte prosím označená pole.',
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
  'nav.station': 'Stanoviště',
  'ship.fromOrder': 'Objednávka {ref} z fronty: zvažte ji a stiskněte Enter.',
  'ship.refusedBefore': 'Dopravce objednávku {ref} odmítl: opravte označená pole a stiskněte Enter.',
  'ship.scanFirst': 'Začněte naskenováním čísla objednávky.', 'ship.shortcut': 'Enter v hmotnosti, F9 nebo Ctrl+Enter',
  'ship.edit': 'Upravit', 'ship.done': 'Hotovo', 'ship.apartment': 'Číslo bytu',
  'ship.parcelCount': 'Počet balíků', 'ship.parcelsHint': 'Enter v poslední hmotnosti odešle', 'ship.box': 'Krabice', 'ship.noBoxes': 'Žádné krabice',
  'ship.resubmit': 'Odeslat opravené', 'ship.fixHint': 'Opravte označená pole a stiskněte Enter nebo F9: dopravci půjde znovu tatáž zásilka.',
  'ship.noSender': 'Stanoviště zatím nemá odesílatele: nastavte ho v části', 'ship.stationPrints': 'Stanoviště {station}: štítky {format} se tisknou na {printer}.',
  'ship.stationManual': 'Stanoviště {station}: štítky {format}; automatický tisk je vypnutý.',
  'ship.stationNoPrinter': 'Stanoviště {station}: automatický tisk je zapnutý, ale štítky {format} netiskne žádná tiskárna.',
  'print.printedOn': 'Vytištěno na {printer}', 'print.printingOn': 'Tiskne se na {printer}…', 'print.queuedOn': 'Ve frontě na {printer}',
  'print.held': '{printer}: {problem}; úloha čeká ve frontě', 'print.failedOn': 'Nevytištěno na {printer}: {error}',
  'print.notPrinted': 'Nevytištěno: {reason}', 'print.notAsked': 'Nevytištěno: automatický tisk je vypnutý.',
  'printers.labels': 'Štítků: {n}', 'shipment.trackingNumber': 'Číslo zásilky',
  'shipments.destination': 'Kam', 'shipments.carrier': 'Dopravce', 'shipments.printed': 'Vytištěno', 'shipments.from': 'Od', 'shipments.to': 'Do',
  'shipments.exportCsv': 'Export CSV', 'shipments.selected': 'Vybráno: {n}', 'shipments.printLabels': 'Tisknout štítky', 'shipments.downloadPdf': 'Stáhnout PDF',
  'shipments.clearSelection': 'Zrušit výběr', 'shipments.selectPage': 'Vybrat vše na stránce', 'shipments.total': 'Zásilek: {n}',
  'shipments.printQueued': 'Štítků: {n}, tiskových úloh: {jobs}: {where}.',
  'status.needs_attention': 'Vyžaduje pozornost',
  'station.title': 'Stanoviště {station}', 'station.hint': 'Každé stanoviště vychází z nastavení účtu; vlastní hodnota stanoviště má přednost. Prázdná pole se dědí.',
  'station.thisStation': 'Toto stanoviště ({station})', 'station.account': 'Všechna stanoviště (účet)', 'station.shipping': 'Odesílání a tisk',
  'station.autoPrint': 'Tisknout po vytvoření', 'station.on': 'Zapnuto', 'station.off': 'Vypnuto',
  'station.printer.pdf': 'Tiskárna PDF', 'station.printer.zpl': 'Tiskárna ZPL', 'station.printer.epl': 'Tiskárna EPL',
  'station.boxes': 'Předvolby krabic', 'station.ownBoxes': 'Vlastní krabice tohoto stanoviště', 'station.box.name': 'Název', 'station.box.length': 'Délka (cm)',
  'station.box.width': 'Šířka (cm)', 'station.box.height': 'Výška (cm)', 'station.box.weight': 'Obvyklá hmotnost (kg)', 'station.addBox': 'Přidat krabici', 'station.removeBox': 'Odebrat',
  'station.save': 'Uložit', 'station.saved': 'Uloženo.', 'station.fromAccount': 'Z účtu: {value}', 'station.default': 'Výchozí: {value}', 'station.none': 'Nic',
  'problem.paper_out': 'došel papír', 'problem.head_open': 'otevřená tisková hlava', 'problem.ribbon_out': 'došla páska', 'problem.paused': 'pozastavena',
  'problem.head_too_hot': 'přehřátá tisková hlava', 'problem.head_too_cold': 'příliš studená tisková hlava', 'problem.corrupt_ram': 'poškozená paměť',
  'problem.unreachable': 'nedostupná', 'problem.no_status_answer': 'neodpovídá na dotaz na stav', 'problem.stopped': 'zastavena',
  'problem.not-accepting-jobs': 'nepřijímá úlohy', 'problem.media-empty': 'došel papír', 'problem.media-needed': 'chybí papír', 'problem.media-jam': 'zaseknutý papír',
  'problem.cover-open': 'otevřený kryt', 'problem.door-open': 'otevřená dvířka', 'problem.interlock-open': 'otevřená pojistka',
  'problem.input-tray-missing': 'chybí vstupní zásobník', 'problem.output-tray-missing': 'chybí výstupní zásobník', 'problem.output-area-full': 'plný výstupní zásobník',
  'problem.marker-supply-empty': 'došel inkoust nebo toner', 'problem.toner-empty': 'došel toner', 'problem.offline': 'odpojena', 'problem.shutdown': 'vypnuta',
  'problem.spool-area-full': 'plná tisková fronta', 'problem.stopped-partly': 'částečně zastavena', 'problem.stopping': 'zastavuje se', 'problem.timed-out': 'vypršel čas',
  'problem.connecting-to-device-error': 'nelze se připojit k zařízení',
};

const pl: Words = {
  'app.title': 'packdesk',
  'nav.ship': 'Nadaj', 'nav.shipments': 'Przesyłki', 'nav.printers': 'Drukarki', 'nav.imports': 'Importy', 'nav.signOut': 'Wyloguj',
  'desk.readOnly': 'Stanowisko tylko do odczytu: można przeglądać, nie zmieniać.',
  'desk.offline': 'packdesk nie odpowiada; próbuję ponownie… Nic, co wpisano, nie zginie.',
  'signIn.title': 'Logowanie do stanowiska', 'signIn.key': 'Klucz API', 'signIn.submit': 'Zaloguj',
  'signIn.hint': 'Klucz zostaje w packdesku: przeglądarka trzyma tylko sesję na 12 godzin.',
  'signIn.linkExpired': 'Link logowania został już użyty lub wygasł. Uruchom ponownie packdesk desk albo zaloguj się kluczem.',
  'ship.reference': 'Numer zamówienia', 'ship.referenceHint': 'Zeskanuj lub wpisz; Enter uzupełni znane zamówienie',
  'ship.filledFrom': 'Uzupełniono z przesyłki {ref} ({date}).', 'ship.notFound': 'Nie było jeszcze zamówienia {ref}: uzupełnij je.',
  'ship.shippedBefore': 'Zamówienie {ref} zostało już nadane ({status}). Nadać ponownie?',
  'ship.channel': 'Kanał', 'ship.recipient': 'Odbiorca', 'ship.sender': 'Nadawca i adres odbioru',
  'ship.firstName': 'Imię', 'ship.lastName': 'Nazwisko', 'ship.company': 'Firma', 'ship.email': 'E-mail', 'ship.phone': 'Telefon',
  'ship.street': 'Ulica', 'ship.house': 'Numer domu', 'ship.city': 'Miasto', 'ship.postal': 'Kod pocztowy', 'ship.country': 'Kraj',
  'ship.parcels': 'Paczki', 'ship.weight': 'Waga (kg)', 'ship.length': 'Długość (cm)', 'ship.width': 'Szerokość (cm)', 'ship.height': 'Wysokość (cm)',
  'ship.cod': 'Pobranie', 'ship.codAmount': 'Kwota', 'ship.codCurrency': 'Waluta',
  'ship.format': 'Format etykiety', 'ship.printer': 'Drukarka', 'ship.copies': 'Kopie',
  'ship.submit': 'Nadaj', 'ship.working': 'Przewoźnik tworzy przesyłkę…', 'ship.created': 'Utworzono: {numbers}',
  'ship.pending': 'Wciąż czekamy na przewoźnika; przesyłka jest zapisana i ponawiana.', 'ship.refused': 'Przewoźnik odmówił: {message}',
  'ship.invalid': 'Sprawdź zaznaczone pola.',
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
  'nav.station': 'Stanowisko',
  'ship.fromOrder': 'Zamówienie {ref} z kolejki: zważ je i naciśnij Enter.',
  'ship.refusedBefore': 'Przewoźnik odrzucił zamówienie {ref}: popraw zaznaczone pola i naciśnij Enter.',
  'ship.scanFirst': 'Zacznij od zeskanowania numeru zamówienia.', 'ship.shortcut': 'Enter w wadze, F9 lub Ctrl+Enter',
  'ship.edit': 'Edytuj', 'ship.done': 'Gotowe', 'ship.apartment': 'Numer lokalu',
  'ship.parcelCount': 'Liczba paczek', 'ship.parcelsHint': 'Enter w ostatniej wadze nadaje', 'ship.box': 'Karton', 'ship.noBoxes': 'Brak kartonów',
  'ship.resubmit': 'Wyślij poprawione', 'ship.fixHint': 'Popraw zaznaczone pola i naciśnij Enter lub F9: ta sama przesyłka trafi ponownie do przewoźnika.',
  'ship.noSender': 'To stanowisko nie ma jeszcze nadawcy: ustaw go w zakładce', 'ship.stationPrints': 'Stanowisko {station}: etykiety {format} drukują się na {printer}.',
  'ship.stationManual': 'Stanowisko {station}: etykiety {format}; automatyczny wydruk jest wyłączony.',
  'ship.stationNoPrinter': 'Stanowisko {station}: automatyczny wydruk jest włączony, ale żadna drukarka nie drukuje etykiet {format}.',
  'print.printedOn': 'Wydrukowano na {printer}', 'print.printingOn': 'Drukuje się na {printer}…', 'print.queuedOn': 'W kolejce na {printer}',
  'print.held': '{printer}: {problem}; zadanie czeka w kolejce', 'print.failedOn': 'Nie wydrukowano na {printer}: {error}',
  'print.notPrinted': 'Nie wydrukowano: {reason}', 'print.notAsked': 'Nie wydrukowano: automatyczny wydruk jest wyłączony.',
  'printers.labels': 'Etykiety: {n}', 'shipment.trackingNumber': 'Numer przesyłki',
  'shipments.destination': 'Dokąd', 'shipments.carrier': 'Przewoźnik', 'shipments.printed': 'Wydrukowano', 'shipments.from': 'Od', 'shipments.to': 'Do',
  'shipments.exportCsv': 'Eksport CSV', 'shipments.selected': 'Zaznaczono: {n}', 'shipments.printLabels': 'Drukuj etykiety', 'shipments.downloadPdf': 'Pobierz PDF',
  'shipments.clearSelection': 'Wyczyść', 'shipments.selectPage': 'Zaznacz wszystkie na stronie', 'shipments.total': 'Przesyłki: {n}',
  'shipments.printQueued': 'Etykiety: {n}, zadania drukowania: {jobs}: {where}.',
  'status.needs_attention': 'Wymaga uwagi',
  'station.title': 'Stanowisko {station}', 'station.hint': 'Każde stanowisko zaczyna od ustawień konta; własna wartość stanowiska ma pierwszeństwo. Puste pola są dziedziczone.',
  'station.thisStation': 'To stanowisko ({station})', 'station.account': 'Wszystkie stanowiska (konto)', 'station.shipping': 'Nadawanie i drukowanie',
  'station.autoPrint': 'Drukuj po utworzeniu', 'station.on': 'Włączony', 'station.off': 'Wyłączony',
  'station.printer.pdf': 'Drukarka PDF', 'station.printer.zpl': 'Drukarka ZPL', 'station.printer.epl': 'Drukarka EPL',
  'station.boxes': 'Predefiniowane kartony', 'station.ownBoxes': 'Własne kartony tego stanowiska', 'station.box.name': 'Nazwa', 'station.box.length': 'Długość (cm)',
  'station.box.width': 'Szerokość (cm)', 'station.box.height': 'Wysokość (cm)', 'station.box.weight': 'Zwykła waga (kg)', 'station.addBox': 'Dodaj karton', 'station.removeBox': 'Usuń',
  'station.save': 'Zapisz', 'station.saved': 'Zapisano.', 'station.fromAccount': 'Z konta: {value}', 'station.default': 'Domyślnie: {value}', 'station.none': 'Brak',
  'problem.paper_out': 'brak papieru', 'problem.head_open': 'otwarta głowica', 'problem.ribbon_out': 'brak taśmy', 'problem.paused': 'wstrzymana',
  'problem.head_too_hot': 'przegrzana głowica', 'problem.head_too_cold': 'zbyt zimna głowica', 'problem.corrupt_ram': 'uszkodzona pamięć',
  'problem.unreachable': 'nieosiągalna', 'problem.no_status_answer': 'nie odpowiada na zapytanie o stan', 'problem.stopped': 'zatrzymana',
  'problem.not-accepting-jobs': 'nie przyjmuje zadań', 'problem.media-empty': 'brak papieru', 'problem.media-needed': 'potrzebny papier', 'problem.media-jam': 'zacięty papier',
  'problem.cover-open': 'otwarta pokrywa', 'problem.door-open': 'otwarte drzwiczki', 'problem.interlock-open': 'otwarta blokada',
  'problem.input-tray-missing': 'brak podajnika', 'problem.output-tray-missing': 'brak odbiornika', 'problem.output-area-full': 'pełny odbiornik',
  'problem.marker-supply-empty': 'brak tuszu lub tonera', 'problem.toner-empty': 'brak tonera', 'problem.offline': 'odłączona', 'problem.shutdown': 'wyłączona',
  'problem.spool-area-full': 'pełna kolejka', 'problem.stopped-partly': 'częściowo zatrzymana', 'problem.stopping': 'zatrzymuje się', 'problem.timed-out': 'przekroczono czas',
  'problem.connecting-to-device-error': 'nie można połączyć się z urządzeniem',
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

/** Whether the desk has a word for a printer's problem (`paper_out`, IPP's `media-jam`). */
export function hasProblemWord(problem: string): boolean {
  return `problem.${problem}` in en;
}

/** A printer's problem in the desk's language, or as the printer named it. */
export function problemWord(problem: string): string {
  return hasProblemWord(problem) ? t(`problem.${problem}` as Key) : problem;
}
