# Die Wörter der Oberfläche auf Deutsch (dieselben Schlüssel wie en.ftl).

## Die Seite

app-title = Carcassonne
app-description = Carcassonne, das Legespiel: am selben Gerät, gegen Bots oder online mit Freunden spielen.
nav-label = Hauptmenü
nav-new-game = Neues Spiel
nav-games = Partien
nav-learn = Lernen
nav-sign-in = Anmelden
loading-tiles = Die Plättchen werden geladen…
lang-select-label = Sprache
boot-unreachable = Der Spielserver ist nicht erreichbar
replay-of-game = Wiederholung der Partie { $id }
replay-file-refused = Diese Aufzeichnung lässt sich nicht abspielen: { $reason }
toasts-label = Meldungen
link-copied = Link kopiert
copy-by-hand = Den Link markieren und kopieren
just-now = gerade eben
minutes-ago = vor { $n } Min.
hours-ago = vor { $n } Std.
something-wrong = etwas ist schiefgelaufen

## Fehler, nach den festen Codes des Servers

error-unknown = Etwas ist schiefgelaufen.
error-network = Der Server ist nicht erreichbar.
error-not_found = Nicht gefunden.
error-bad_request = Die Anfrage ist fehlerhaft.
error-unauthorized = Dieser Link gibt dir keinen Platz in dieser Partie.
error-not_your_turn = Du bist nicht am Zug.
error-stale_version = Die Partie ist weitergegangen: bitte neu laden.
error-game_over = Die Partie ist vorbei.
error-not_finished = Eine Analyse gibt es nur für beendete Partien: diese läuft noch.
error-illegal_move = Dieser Zug ist nach den Regeln nicht erlaubt.
error-too_large = Die Anfrage ist zu groß.
error-rate_limited = Zu viele Anfragen: kurz warten und noch einmal versuchen.
error-hidden_information = Die Aufzeichnung einer Partie mit verdeckten Händen gibt es erst nach Spielende.
error-storage_error = Die Partie konnte nicht gespeichert werden; nichts wurde geändert.
error-unsupported_media_type = JSON mit dem Header content-type: application/json senden.
error-forbidden_origin = Dieser Server nimmt keine Verbindungen von Seiten dieser Website an.
error-too_many_connections = Kein Platz für eine weitere Verbindung: später noch einmal versuchen.
error-quota_exceeded = Dieser Server nimmt von dir vorerst keine neuen Partien an.
error-later_rules_code = Diese Regeln stammen aus einer neueren Version des Spiels als der dieses Servers: frag nach, mit welcher Version gespielt wird.
error-bad_rules_code = Dieser Link enthält keine Regeln, die dieser Server lesen kann.
error-busy = Der Server ist ausgelastet: gleich noch einmal versuchen.
error-too_many_tokens = Die Anfrage nennt zu viele Platz-Schlüssel.
error-name_taken = Dieser Name ist vergeben (oder ein sehr ähnlicher): bitte einen anderen wählen.
error-bad_credentials = Falscher Name oder falsches Passwort.
error-not_signed_in = Bitte zuerst anmelden.
error-too_many_attempts = Zu viele Versuche: später noch einmal versuchen.

## Regeloptionen (RULE_OPTIONS der Spiel-Engine: jeder Schlüssel ist ihr `key`)

rule-value-on = an
rule-value-off = aus
rule-value-no-limit = unbegrenzt
rule-farms = Wertung der Wiesen
    .about = Wie die Bauern am Spielende werten.
rule-farms-per-farm = 3 je Stadt, für jede Wiese
rule-farms-per-farm-once = 3 je Stadt, einmal je Spieler
rule-farms-per-city = 4 je Stadt, Mehrheit über alle ihre Wiesen
rule-farms-off = keine Bauern
rule-small_city = Kleine Städte: eine fertige Stadt aus 2 Plättchen zählt 2
    .about = Eine fertige Stadt aus zwei Plättchen zählt 1 statt 2 Punkte je Plättchen und Wappen.
rule-river = Der Fluss: das Spiel beginnt mit den 12 Flussplättchen
    .about = Die 12 Flussplättchen ersetzen das Startplättchen und werden zuerst gelegt.
rule-abbot = Der Abt: ein Abt für jeden Spieler, Gärten werden gewertet
    .about = Jeder Spieler bekommt einen Abt für Klöster und Gärten, den er zurückholen darf.
rule-hand = Plättchen auf der Hand (1 = wie üblich eines ziehen)
    .about = Wie viele Plättchen jeder Spieler hält und aus ihnen wählt.
rule-hand_visible = Die Hände sind für alle sichtbar
    .about = Die Plättchen auf der Hand sieht jeder Spieler, nicht nur ihr Besitzer.
rule-draw_at_turn_end = Das nächste Plättchen am Ende des Zuges ziehen
    .about = Du ziehst dein nächstes Plättchen am Ende deines Zuges und siehst es, während die anderen spielen.
rule-unplaceable = Ein Plättchen, das nirgends passt
    .about = Was mit einem gezogenen Plättchen geschieht, das nirgends passt.
rule-unplaceable-discard = wird abgelegt
rule-unplaceable-reshuffle = kommt zurück in den Beutel
rule-hole_bonus_turn = Eine Lücke füllen (vier Nachbarn) bringt einen weiteren Zug
    .about = Ein Plättchen mit Nachbarn an allen vier Seiten bringt einen weiteren Zug.
rule-incomplete_scoring = Unfertige Gebiete werden am Ende gewertet
    .about = Ob unfertige Straßen, Städte, Klöster und Gärten am Ende zählen.
rule-board_limit = Tischgröße
    .about = Jedes Plättchen muss in einem Rechteck B × H um das Startplättchen liegen.
rule-border_completes = Der Tischrand schließt Straßen und Städte ab (mit Tischgröße)
    .about = Mit Tischgröße: Straßen und Städte, die den Tischrand erreichen, gelten dort als abgeschlossen.
rule-first_player = Startspieler
    .about = Wer beginnt: der erste Platz oder ein zufällig gewählter Spieler.
rule-first_player-seat0 = der erste Platz
rule-first_player-random = zufällig gewählt
rule-inns_cathedrals = Wirtshäuser & Kathedralen: Wirtshäuser, Kathedralen und je ein großer Gefolgsmann
    .about = Fügt die 18 Karten von Wirtshäuser & Kathedralen hinzu: Wirtshäuser verdoppeln eine fertige Straße, Kathedralen verdreifachen eine fertige Stadt, und jeder Spieler hat einen großen Gefolgsmann.
rule-traders_builders = Händler & Baumeister: Waren, je ein Baumeister und ein Schwein
    .about = Fügt die 24 Karten von Händler & Baumeister hinzu: wer eine Stadt mit Waren fertigstellt, erhält ihre Warenplättchen, und jeder Spieler hat einen Baumeister und ein Schwein.
rule-big_follower = Große Gefolgsleute (Wirtshäuser & Kathedralen)
    .about = Der große Gefolgsmann jedes Spielers zählt bei jeder Mehrheit wie zwei Gefolgsleute.
rule-inns = Wirtshäuser (Wirtshäuser & Kathedralen)
    .about = Eine fertige Straße mit Wirtshaus zählt 2 je Karte, eine unfertige nichts.
rule-cathedrals = Kathedralen (Wirtshäuser & Kathedralen)
    .about = Eine fertige Stadt mit Kathedrale zählt 3 je Karte und Wappen, eine unfertige nichts.
rule-builder = Baumeister (Händler & Baumeister)
    .about = Ein Baumeister neben deinem Gefolgsmann gibt dir eine zweite Karte, sooft du seine Straße oder Stadt verlängerst.
rule-pig = Schweine (Händler & Baumeister)
    .about = Ein Schwein neben deinem Bauern lässt dich über diese Wiese je fertiger Stadt 1 Punkt mehr erhalten.
rule-goods = Waren (Händler & Baumeister)
    .about = Wer eine Stadt fertigstellt, erhält ihre Warenplättchen; die meisten jeder Sorte zählen am Ende 10.

## Shared words

loading = Wird geladen…
cancel = Abbrechen
close = Schließen
color-yellow = Gelb
color-red = Rot
color-green = Grün
color-blue = Blau
color-black = Schwarz
color-pink = Rosa
bot-level-random = zufällig
    .about = zufällige erlaubte Züge
bot-level-easy = leicht
    .about = eine kurze Suche (300 Simulationen je Zug)
bot-level-normal = normal
    .about = eine echte Suche (3.000 Simulationen je Zug)
bot-level-hard = schwer
    .about = eine Sekunde Suche je Zug

## Home and new game

seat-you = Du
home-rules-prefilled = Das Formular enthält diese Regeln: Mitspieler wählen und loslegen
home-rules-unreadable = Diese Regeln lassen sich nicht lesen: { $reason }
home-tagline = Lege Plättchen, baue Städte, Straßen und Klöster und setze deine Gefolgsleute ein, um zu punkten.
home-new-game = Neues Spiel
home-add-player = + Mitspieler hinzufügen
home-rules = Regeln
home-share-rules = Diese Regeln teilen
home-public = Diese Partie öffentlich zum Zuschauen zeigen
home-start = Spiel starten
home-your-games = Deine Partien
home-public-games = Partien zum Zuschauen
home-open-record = Aufzeichnung öffnen…
home-saved-rules = Gespeicherte Regeln
home-options = Optionen
home-saved-none = Die Hausregeln eurer Runde, hier aufbewahrt: im Formular zusammenstellen, dann „Diese Regeln teilen“ und speichern.
home-saved-start = Partie starten
home-saved-rename = Umbenennen
home-saved-delete = Löschen
home-saved-delete-named = { $name } löschen
home-saved-delete-confirm = Die gespeicherten Regeln „{ $name }“ löschen?
home-saved-new-name = Neuer Name für { $name }
home-no-games = Noch keine Partien: starte eine!
seat-player = Spieler { $n }
seat-name-label = Name von Spieler { $n }
seat-person = Mensch
seat-bot = Bot
seat-bot-name = Name des Bots (freiwillig)
seat-friend-name = Name der Freundin/des Freundes
seat-bot-level = Stärke des Bots
seat-where = Wo Spieler { $n } spielt
seat-where-help = Hier: an diesem Bildschirm (abwechselnd). Einladen: jemand spielt über einen Link am eigenen Gerät.
seat-here = Hier (dieser Bildschirm)
seat-invite = Jemanden einladen (Link)
seat-remove = Entfernen
game-row-bot = Bot
game-row-aborted = abgebrochen: niemand hat gezogen
game-row-finished = beendet · { $turns } Züge
game-row-turn = Zug { $n }
game-row-to-play = { $name } ist am Zug
game-row-replay = Wiederholung
game-row-download = Aufzeichnung herunterladen
game-row-view = Ansehen
game-row-continue = Weiterspielen
game-row-watch = Zuschauen
how-title = So wird gespielt
how-place = Plättchen legen.
how-place-fits = Hervorgehobene Felder zeigen, wo es passt;
how-place-kbd = mit R (oder einem Klick auf das Plättchen) drehen
how-place-touch = tippe auf dein Plättchen, um es zu drehen
how-place-edges = Die Kanten müssen passen: Stadt an Stadt, Straße an Straße, Wiese an Wiese.
how-deploy = Einen Gefolgsmann einsetzen
how-deploy-or-not = — oder nicht.
how-deploy-kbd = Klicke auf einen Kreis auf dem neuen Plättchen
how-deploy-touch = Tippe auf einen Kreis auf dem neuen Plättchen oder wähle einen Platz darunter
how-deploy-where = als Ritter in eine Stadt, als Wegelagerer auf eine Straße, als Mönch in ein Kloster, als Bauer liegend auf eine Wiese. Das Gebiet muss frei sein.
how-confirm = Bestätigen
how-confirm-kbd = mit Enter; Esc nimmt deine Wahl zurück
how-confirm-touch = ; Zurück nimmt deine Wahl zurück
how-confirm-scores = Fertige Straßen, Städte und Klöster werden sofort gewertet und deine Gefolgsleute kehren zurück.
how-keyboard = Mit der Tastatur:
how-keyboard-keys = die Pfeiltasten bewegen dein Plättchen zwischen den passenden Feldern, R und Umschalt+R drehen es, F (oder 1–9) wählt den Platz eines Gefolgsmanns.
how-end = Am Ende zählen unfertige Gebiete weniger, und Bauern werten die fertigen Städte an ihren Wiesen.

## Rules page and presets

rules-loading = Die Regeln werden geladen…
rules-unreadable = Diese Regeln lassen sich nicht lesen
rules-unreadable-hint = Prüfe, ob der ganze Link kopiert wurde, oder lass ihn dir noch einmal schicken.
back-to-start = Zurück zur Startseite
rules-none-changed = Keine: die Regeln „{ $preset }“ unverändert.
rules-page-title = Die Regeln: { $preset }{ $n ->
        [0] {""}
        [one] {" "}+ { $n } Option
       *[other] {" "}+ { $n } Optionen
    }
rules-cli = Für die Kommandozeile (carcassonne play --rules …):
rules-start = Mit diesen Regeln spielen
rules-share-or-save = Teilen oder speichern
rules-in-force = Geltende Hausregeln und Optionen
rules-share = Diese Regeln teilen
rules-share-hint = Mitspieler öffnen den Link oder scannen den Code, um sie am Tisch zu lesen.
rules-qr-alt = QR-Code des Links zu diesen Regeln
rules-qr-none = Kein QR-Code: bitte den Link kopieren
rules-link = Link
copy-link = Link kopieren
rules-save-as = Auf diesem Server speichern als
rules-default-name = Unsere Hausregeln
save = Speichern
rules-every-option = Alle Optionen und was sie bewirken
rules-saved = Gespeichert als „{ $name }“: zu finden auf der Startseite
rules-section-setup = Vorbereitung
rules-section-a-turn = Ein Spielzug
rules-section-roads = Straßen
rules-section-cities = Städte
rules-section-cloisters = Klöster
rules-section-farms = Wiesen
rules-section-end-of-the-game = Spielende
preset-standard = Standard
preset-beginner = Einsteiger
preset-first-edition = Erstausgabe
preset-big-box = Big Box
preset-standard-title = Die heutigen Regeln
preset-beginner-title = Eine sanfte erste Partie
preset-first-edition-title = Die Regeln von 2000
headline-farms-per-farm = Bauern zählen 3 je fertige Stadt
headline-farms-per-farm-once = Bauern zählen 3 je fertige Stadt, jede Stadt einmal je Spieler
headline-farms-per-city = Bauern zählen 4 je fertige Stadt, für die meisten Bauern über alle ihre Wiesen
headline-farms-off = keine Bauern
rules-title = Regeln: { $preset }{ $n ->
        [0] {""}
        [one] {" "}+ { $n } Option
       *[other] {" "}+ { $n } Optionen
    }
headline = { $title }{ $changed ->
        [yes] , mit Hausregeln
       *[no] {""}
    }: { $farms }{ $small ->
        [yes] ; kleine Städte zählen 2
       *[no] {""}
    }.

## Colours (theme switch)

theme-system = wie das System
theme-light = hell
theme-dark = dunkel
theme-word-system = auto
theme-word-light = hell
theme-word-dark = dunkel
theme-title = Farben: { $now } (Klick für { $next })
theme-label = Farben { $word } ({ $now }): zu { $next } wechseln

## Accounts

account-sign-out = Abmelden
account-create-title = Konto anlegen
account-why = Mit einem Konto gehört dein Name dir. Du kannst auch ohne Konto als Gast spielen.
account-none = Kein Konto?
account-create-one = Lege eines an
account-or-guest = {" "}oder spiele als Gast.
account-name = Name
account-password = Passwort
account-password-min = Mindestens 8 Zeichen.
account-create = Konto anlegen
account-have-one = Schon ein Konto?
account-welcome = Willkommen, { $name }
account-recovery = Mit deinem Wiederherstellungscode setzt du ein neues Passwort, falls du deines vergisst. Er wird nur jetzt angezeigt: schreib ihn auf oder bewahre ihn im Passwort-Manager auf.
done = Fertig

## The game screen

game-board-help = In deinem Zug: die Pfeiltasten bewegen dein Plättchen zwischen den passenden Feldern, R und Umschalt+R drehen es, F und Umschalt+F gehen die Plätze für einen Gefolgsmann durch, Enter legt es, Escape nimmt zurück; H fragt nach einem Tipp (gegen Bots oder an einem Bildschirm).
game-watching = Zuschauer
game-watching-help = Du hast keinen Platz in dieser Partie: du siehst jeden Zug, sobald er gespielt wird
game-drawer = Menü: Protokoll, restliche Plättchen, Links und Partie beenden
game-players = Spieler
game-your-move = Dein Zug
game-menu-title = Menü
game-back-to-board = Zurück zum Spielfeld
game-log = Spielprotokoll
setting-confirm-moves = Jeden Zug bestätigen
setting-confirm-moves-help = An: Ein Zug gilt erst mit „Bestätigen“. Aus: Die Wahl eines Platzes für einen Gefolgsmann (oder „Keiner“) spielt ihn sofort. Dieses Gerät merkt es sich.
game-sound-on = Ton, wenn du am Zug bist: an (Klick zum Ausschalten)
game-sound-off = Ton, wenn du am Zug bist: aus (Klick zum Einschalten)
invite-qr-larger = QR-Code größer zeigen
invite-qr-alt = QR-Code: { $label }
invite-title = Lade deine Freunde ein
invite-links = Einladungslinks
invite-help = Schick allen ihren eigenen Link oder lass ihn scannen: wer ihn öffnet, spielt auf diesem Platz.
invite-seat = Platz { $n }
invite-not-joined = noch nicht da
invite-here = ist da
invite-left = gegangen (der Link gilt weiter)
invite-anyone = Alle
invite-can-watch = können zuschauen
invite-local = Links mit { $host } funktionieren nur auf diesem Computer: den Server im Netzwerk starten und diese Seite unter der Netzwerkadresse des Computers öffnen, z. B. mit
invite-scan-to-play = { $name }: scannen und mitspielen
invite-scan-to-watch = Scannen und zuschauen
invite-waiting-for = warten auf { $names }
invite-names-left = { $names } gegangen (der Link gilt weiter)
invite-everyone-here = alle sind da
qr-code = QR-Code
game-no-seat = Dieser Link gibt (nicht mehr) einen Platz in dieser Partie: du schaust zu.
game-not-found = Diese Partie gibt es nicht
game-not-found-text = Die Partie { $id } ist nicht auf diesem Server.
game-start-new = Neues Spiel starten
game-too-fast = Zu schnell: kurz warten und noch einmal versuchen
game-illegal = Dieser Zug ist nicht erlaubt: { $reason }
title-your-turn = ● Du bist dran — Carcassonne
title-game-over = Spielende — Carcassonne
title-watching = Zuschauen — Carcassonne
banner-you-win = Spielende — du hast gewonnen!
banner-aborted = Partie abgebrochen: Eine Uhr ist abgelaufen, bevor jemand gezogen hat.
banner-game-over = Spielende — { $winners }!
banner-see-results = Zum Ergebnis
banner-placing = Wird gelegt…
banner-named-turn = { $name }, du bist dran
banner-your-turn = Du bist dran
banner-tap-cell = { $who }: tippe auf ein helles Feld
banner-place = { $who }: lege das Plättchen — { $r } dreht
banner-pick-spot-touch = { $who }: wähle einen Platz oder tippe noch einmal auf das Plättchen, um es zu legen
banner-pick-spot = { $who }: wähle einen Platz für einen Gefolgsmann oder bestätige mit { $enter }
banner-lay-touch = { $who }: tippe noch einmal auf das Plättchen oder auf Bestätigen, um es zu legen
banner-lay = { $who }: bestätige mit { $enter }
key-enter = Enter
key-esc = Esc
banner-thinking = { $name } überlegt
banner-waiting-join = Warten, bis { $name } dazukommt
banner-waiting-offline = Warten auf { $name } (offline)
banner-waiting = Warten auf { $name }
game-aborted = Partie abgebrochen
game-aborted-why = Eine Uhr ist abgelaufen, bevor jemand gezogen hat: Die Partie endet ungespielt und zählt für niemanden.
game-over = Spielende
game-all-placed = Alle Plättchen liegen.
game-ended-early = Die Partie endete vor dem letzten Plättchen: Es zählt der Punktestand von da.
results = Ergebnis
info-no-follower-left = Du hast keinen Gefolgsmann mehr für dieses Plättchen: bestätige, um es zu legen.
info-no-follower-fits = Auf dieses Plättchen kann kein Gefolgsmann.
info-off-view = { $n } weitere am Rand oder außerhalb: das Spielfeld ziehen, oder ⤢ zeigt alles.
info-no-fit = Passt so nicht
info-tap-turn = Tippe auf das Plättchen, um es zu drehen.
info-press-r = Drücke { $r }.
hand-choose = Wähle ein Plättchen:
hand-yours = Deine Plättchen:
hand-yours-many = Deine Hände:
confirm = Bestätigen
confirm-no-follower = Bestätigen — ohne Gefolgsmann
confirm-recall = Bestätigen — Abt zurückholen
confirm-abbot = Bestätigen — Abt
confirm-role = Bestätigen — { $role }
role-knight = Ritter
role-thief = Wegelagerer
role-monk = Mönch
role-farmer = Bauer
role-abbot = Abt
role-follower = Gefolgsmann
role-builder = Baumeister
role-pig = Schwein
recall-abbot = Abt zurückholen
spot-picker = Gefolgsmann
spot-none = Keiner
tile-yours = Dein Plättchen
tile-of = Plättchen von { $name }
tile-turn-bag = Zug { $turn } · { $left } im Beutel
turn-left = Nach links drehen
turn-right = Nach rechts drehen
tap-to-turn = Tippen zum Drehen
click-to-turn = Klicken zum Drehen (R)
tile-yours-turn = Dein Plättchen, { $tile }: drehen
tile-hidden = ein verdecktes Plättchen
tile-thinking = { $name } überlegt…
tile-to-play = { $name } ist am Zug.
undo = Zurück
bag-hide = Restliche Plättchen ausblenden
bag-show = Restliche Plättchen zeigen
download-record = Aufzeichnung herunterladen
all-games = Alle Partien
you-are-watching = du schaust zu
results-you-win = Du hast gewonnen!
results-tie = Gleichstand: { $winners }!
results-winner = { $winners }!
results-final = Endstand
results-after = Endstand nach { $n } Zügen
results-one-by-one = Die Schlusswertung, Posten für Posten (einen wählen, um ihn auf dem Spielfeld zu sehen)
results-chart = Punkte im Spielverlauf
results-look = Spielfeld ansehen
results-review = Partie analysieren
results-review-help = Was die Suche stattdessen gespielt hätte, Zug für Zug
only-one-way = Hier passt nur eine Ausrichtung
info-deploy = Klicke auf einen Kreis oder drücke F, um einen Gefolgsmann einzusetzen ({ $n ->
        [one] { $n } Platz
       *[other] { $n } Plätze
    }), oder bestätige ohne.
info-deploy-quick = Klicke auf einen Kreis, um mit einem Gefolgsmann dort zu spielen ({ $n ->
        [one] { $n } Platz
       *[other] { $n } Plätze
    }), oder bestätige ohne.
info-deploy-touch-quick = Wähle unten einen Platz, um mit einem Gefolgsmann dort zu spielen ({ $n ->
        [one] { $n } Platz
       *[other] { $n } Plätze
    }), oder Keiner, um ohne zu spielen.
info-deploy-touch = Wähle unten einen Platz für einen Gefolgsmann ({ $n ->
        [one] { $n } Platz
       *[other] { $n } Plätze
    }), oder bestätige ohne.
info-fits = Passt so an { $b } { $n ->
        [one] Stelle
       *[other] Stellen
    }.
info-fits-of = Passt so an { $b } { $n ->
        [one] Stelle
       *[other] Stellen
    } ({ $all } Felder insgesamt).
info-fits-turned = gedreht passt es auf { $n ->
        [one] { $n } Feld
       *[other] { $n } Felder
    }.
bag-left = { $b } { $n ->
        [one] Plättchen
       *[other] Plättchen
    } im Beutel

## Players, log and results

kind-roads = Straßen
kind-cities = Städte
kind-cloisters = Klöster
kind-farms = Wiesen
kind-gardens = Gärten
kind-recalls = Abt zurückgeholt
score-laps = { $n }+ auf der Wertungsleiste
score-track = { $n } auf der Leiste
abbot-in-supply = Abt im Vorrat
abbot-on-board = Abt auf dem Spielfeld
tiles-in-hand = Plättchen auf der Hand
tag-bot-title = Computerspieler
tag-you = du
player-rating-title = Wertung (gewertete Partie)
online = online
offline = offline
status-thinking = überlegt
status-to-play = am Zug
status-winner = Sieger
supply = { $n } von { $all } Gefolgsleuten im Vorrat
at-the-end = am Ende
scored-cloister = Kloster
scored-garden = Garten
abbot-recalled = Abt zurückgeholt
show-why = Auf dem Spielfeld zeigen, warum
final-scoring = Schlusswertung
log-discarded = dieses Plättchen passte nirgends und wurde abgelegt
log-reshuffled = dieses Plättchen passte nirgends und kam zurück in den Beutel
log-bonus = { $name } hat eine Lücke gefüllt und spielt noch einmal
log-empty = Das Spiel beginnt: das Startplättchen liegt in der Mitte.
remaining-title = { $tile }: noch { $n } von { $all }
plus-at-the-end = { $d } + { $f } am Ende
total = Gesamt
chart-label = Punkte im Spielverlauf: { $scores }
tiles-in-hand-n = { $n } Plättchen auf der Hand
win-text = { $names } { $n ->
        [one] gewinnt
       *[other] gewinnen
    }
scored-road = Straße aus { $n } Plättchen
scored-city = Stadt aus { $n } Plättchen{ $shields ->
        [0] {""}
        [one] , { $shields } Wappen
       *[other] , { $shields } Wappen
    }
scored-farm = Wiese, { $n ->
        [one] { $n } fertige Stadt
       *[other] { $n } fertige Städte
    }

## Connection

move-not-sent = Der Zug wurde nicht gesendet: gleich noch einmal versuchen
back-online = Wieder online.
offline-note = Du bist offline. Das Spiel verbindet sich wieder, sobald das Netz zurück ist.
connection-lost = Verbindung verloren. Neuer Versuch…

## Board, tiles and what screen readers hear

board = Das Spielfeld
zoom-in = Vergrößern
zoom-out = Verkleinern
zoom-fit = Ganzes Spielfeld zeigen
# Lists of words, as the language writes them (the CLDR's list patterns): two words, and the last of three or more
# (the others are joined by a comma).
list-two = { $first } und { $last }
list-end = { $rest } und { $last }
tile-words-unknown = Plättchen { $id }
tile-words-fields = ein Plättchen nur mit Wiese
tile-words = ein Plättchen mit { $list }
tile-part-cloister = einem Kloster
tile-part-garden = einem Garten
tile-part-river = dem Fluss
tile-part-inn = einem Gasthaus
tile-part-cathedral = einer Kathedrale
tile-part-goods = { $goods ->
        [wine] einem Weinfass
        [wheat] einer Getreidegarbe
       *[cloth] einem Stoffballen
    }
place-start = der Start
place-far = { $parts } vom Start
spot-cloister = { $role } im Kloster
spot-garden = { $role } im Garten
dir-north = im Norden
dir-south = im Süden
dir-east = im Osten
dir-west = im Westen
dir-north-east = im Nordosten
dir-north-west = im Nordwesten
dir-south-east = im Südosten
dir-south-west = im Südwesten
said-laid = { $name } legte { $tile } { $place }
said-laid-start = { $name } legte { $tile } an den Start
said-with = , mit einem { $role }
said-scored = { $names } +{ $points }, { $what }
# Goods taken with a city: no points, the words say what.
said-took = { $names }, { $what }
said-recalled = { $names } holte den Abt zurück, +{ $points }
said-discarded = { $tile } passte nirgends und wurde abgelegt
said-reshuffled = { $tile } passte nirgends und kam zurück in den Beutel
said-bonus = { $name } füllte eine Lücke und spielt noch einmal
said-end = Spielende: { $winners }
said-other-arrow = Versuch eine andere Pfeiltaste.
said-no-spot = Kein Platz für einen Gefolgsmann.
said-no-spot-here = Hier ist kein Platz für einen Gefolgsmann.
said-no-follower = Kein Gefolgsmann.
said-move-first = Beweg das Plättchen zuerst mit den Pfeiltasten.
tile-part-city = { $n ->
        [one] einer Stadt
       *[other] { $n } Städten
    }{ $shield ->
        [yes] {" "}mit Wappen
       *[no] {""}
    }
tile-part-road = { $n ->
        [one] einer Straße
       *[other] { $n } Straßen
    }
place-next = { $dir ->
        [east] östlich
        [west] westlich
        [south] südlich
       *[north] nördlich
    } vom Start
place-steps = { $n } { $dir ->
        [east] nach Osten
        [west] nach Westen
        [south] nach Süden
       *[north] nach Norden
    }
spot-city = { $role } in der Stadt{ $where ->
        [none] {""}
       *[other] {" "}{ $where }
    }
spot-road = { $role } auf der Straße{ $where ->
        [none] {""}
       *[other] {" "}{ $where }
    }
spot-field = { $role } auf der Wiese{ $where ->
        [none] {""}
       *[other] {" "}{ $where }
    }
spot-tile = { $role } auf dem Plättchen{ $where ->
        [none] {""}
       *[other] {" "}{ $where }
    }
said-your-turn = Du bist dran: { $tile }; es passt auf { $n ->
        [one] { $n } Feld
       *[other] { $n } Felder
    }.
board-label = Das Spielfeld: { $n } Plättchen gelegt
board-label-mine = Das Spielfeld: { $n } Plättchen gelegt; dein Plättchen, { $tile }, passt auf { $cells } Felder
said-no-cell = Kein Feld weiter { $dir ->
        [east] östlich
        [west] westlich
        [south] südlich
       *[north] nördlich
    }.
said-placed = { $place }, um { $deg }° gedreht{ $ways ->
        [0] {""}
        [1] {""}
       *[other] {" "}(passt auf { $ways } Arten)
    }.
said-spots = { $n ->
        [one] { $n } Platz
       *[other] { $n } Plätze
    } für einen Gefolgsmann: { $spots }.

## Chart

chart-axis-turn = Zug

## The rules page in words (formatted by the server, crates/server/src/i18n.rs rules_summary)

rs-setup-river = Die Quelle beginnt die Auslage; die anderen 11 Flussplättchen werden zuerst gezogen (der See als letztes), dann die 71 Landschaftsplättchen.
rs-setup-start = Das Startplättchen liegt offen in der Tischmitte; die anderen 71 Plättchen werden verdeckt gemischt.
rs-followers-abbot = Jeder Spieler hat 7 Gefolgsleute und einen Abt.
rs-followers = Jeder Spieler hat 7 Gefolgsleute.
rs-draw-first = Jeder Spieler zieht sein erstes Plättchen vor Spielbeginn.
rs-table = Der Tisch ist { $w } mal { $h } Plättchen groß, um das Startplättchen herum: kein Plättchen darf außerhalb liegen.
rs-first-seat = Der erste Platz beginnt.
rs-first-random = Der Startspieler wird ausgelost.
rs-turn-hand = Wähle eines deiner { $n } Plättchen und lege es an die Auslage an, jede gemeinsame Kante passend: Stadt an Stadt, Straße an Straße, Wiese an Wiese.
rs-turn-draw-end = Lege das am Ende deines letzten Zuges gezogene Plättchen an die Auslage an, jede gemeinsame Kante passend: Stadt an Stadt, Straße an Straße, Wiese an Wiese.
rs-turn-draw = Ziehe ein Plättchen und lege es an die Auslage an, jede gemeinsame Kante passend: Stadt an Stadt, Straße an Straße, Wiese an Wiese.
rs-unplaceable-discard = Ein Plättchen, das nirgends passt, kommt aus dem Spiel, und ein anderes wird gezogen.
rs-unplaceable-reshuffle = Ein Plättchen, das nirgends passt, kommt zurück in den Beutel, und ein anderes wird gezogen.
rs-follower-farmers = Dann darfst du einen Gefolgsmann auf eine Straße, Stadt, ein Kloster oder eine Wiese dieses Plättchens setzen, wenn auf dem ganzen Gebiet noch keiner steht.
rs-follower-no-farmers = Dann darfst du einen Gefolgsmann auf eine Straße, Stadt oder ein Kloster dieses Plättchens setzen, wenn auf dem ganzen Gebiet noch keiner steht. Auf Wiesen kommen keine Gefolgsleute.
rs-abbot = Oder setze deinen Abt in sein Kloster oder seinen Garten; oder hole, statt etwas einzusetzen, deinen Abt zurück und werte 1 + die Plättchen um ihn herum.
rs-complete = Straßen, Städte und Klöster, die dein Plättchen fertigstellt, werden sofort gewertet, und ihre Gefolgsleute kehren zurück.
rs-hole = Ein Plättchen mit Nachbarn an allen vier Seiten füllt eine Lücke und bringt dir einen weiteren Zug.
rs-draw-back = Ziehe am Ende deines Zuges wieder auf { $n } Plättchen nach.
rs-draw-next = Ziehe dein nächstes Plättchen am Ende deines Zuges: du siehst es, während die anderen spielen.
rs-road-score = Sie bringt dem Spieler mit den meisten Wegelagerern 1 Punkt je Plättchen; bei Gleichstand punkten alle Beteiligten voll.
rs-city-score = Sie bringt dem Spieler mit den meisten Rittern 2 Punkte je Plättchen und 2 je Wappen; bei Gleichstand punkten alle Beteiligten voll.
rs-small-city = Kleine Städte: eine fertige Stadt aus nur 2 Plättchen zählt stattdessen 1 je Plättchen und je Wappen.
rs-cloister = Ein Kloster ist fertig, wenn die 8 Plättchen um es herum liegen: 9 Punkte für seinen Mönch.
rs-gardens = Gärten werden wie Klöster gewertet, aber nur ein Abt darf darauf stehen.
rs-farm-what = Eine Wiese ist eine Fläche Land, begrenzt von Straßen, Städten, dem Fluss und dem Tischrand. Bauern bleiben bis zum Spielende liegen.
rs-farm-end = Am Ende: { $summary }
rs-no-farmers = Es gibt keine Bauern: Wiesen zählen nie.
rs-farms-summary-per-farm = jede Wiese bringt der Mehrheit ihrer Bauern 3 Punkte je angrenzende fertige Stadt.
rs-farms-summary-per-farm-once = 3 Punkte je fertige Stadt, jede Stadt zahlt jedem Spieler höchstens einmal (Regeln von 2001).
rs-farms-summary-per-city = jede fertige Stadt bringt 4 Punkte für die meisten Bauern über alle angrenzenden Wiesen (Regeln von 2000).
rs-farms-summary-off = es gibt keine Bauern.
rs-farms-example-per-farm = Beispiel: Eine Wiese grenzt an zwei fertige Städte und eine unfertige. Ada hat zwei Bauern darauf, Bob einen. Ada bekommt 2 × 3 = 6, Bob nichts; die unfertige Stadt zahlt niemandem. Hält Bob noch eine andere Wiese an einer dieser Städte, zahlt ihm diese Stadt ebenfalls 3.
rs-farms-example-per-farm-once = Beispiel: Ada hat auf zwei Wiesen die meisten Bauern, und beide grenzen an dieselbe fertige Stadt. Diese Stadt zahlt ihr einmal 3, nicht 3 je Wiese. Eine zweite fertige Stadt an einer der Wiesen zahlt ihr weitere 3.
rs-farms-example-per-city = Beispiel: Eine fertige Stadt grenzt an zwei Wiesen. Ada hat einen Bauern auf der ersten, Bob auf jeder einen. Über beide Wiesen gezählt hat Bob 2 Bauern gegen Adas 1, also zahlt die Stadt Bob 4 und Ada nichts. Bei Gleichstand bekämen beide 4.
rs-farms-example-off = Beispiel: Eine Wiese neben drei fertigen Städten ist für niemanden etwas wert: auf Wiesen können keine Gefolgsleute gesetzt werden.
rs-end-hand = Das Spiel endet, wenn der Beutel und alle Hände leer sind.
rs-end-last = Das Spiel endet, nachdem das letzte Plättchen gelegt ist.
rs-incomplete-none = Unfertige Straßen, Städte, Klöster und Gärten zählen nichts.
rs-farms-then = Dann werden die Wiesen gewertet, wie oben.
rs-winner = Die höchste Summe gewinnt; bei Gleichstand teilen sich die Spieler den Sieg.
rs-hand = Jeder Spieler zieht eine Hand aus { $n } Plättchen, { $shown ->
        [yes] für alle sichtbar
       *[no] nur für sich selbst sichtbar
    }.
rs-road-complete = Eine Straße ist fertig, wenn beide Enden an einer Kreuzung, einer Stadt oder einem Kloster enden, oder sie einen Ring schließt{ $edge ->
        [yes] {""} oder den Tischrand erreicht
       *[no] {""}
    }.
rs-city-complete = Eine Stadt ist fertig, wenn ihre Mauern ringsum geschlossen sind{ $edge ->
        [yes] {""} oder sie den Tischrand erreicht
       *[no] {""}
    }.
rs-incomplete = Unfertige Straßen zählen dann 1 je Plättchen, unfertige Städte 1 je Plättchen und je Wappen, unfertige Klöster{ $gardens ->
        [yes] {" "}und Gärten
       *[no] {""}
    } 1 + die Plättchen um sie herum.

## Top bar on narrow phones

nav-new-game-short = Neu
nav-games-short = Partien
nav-learn-short = Lernen
nav-sign-in-short = Anmelden

## Replay

replay-first = Anfang
replay-back = Zurück
replay-play = Abspielen
replay-forward = Vor
replay-end = Ende
replay-turn = Zug
replay-finished = beendete Partie
replay-unfinished = unbeendete Partie
replay-back-to-game = Zurück zur Partie
replay-log = Protokoll
replay-scores = Punkte
replay-start-tile = Das Startplättchen
replay-banner = Zug { $k }: { $name } { $you ->
        [yes] legst
       *[no] legt
    } { $tile }{ $deploy }{ $done }
replay-with = {" "}mit einem { $role }
replay-final = {" "}— Schlusswertung

## Hints
hint = Tipp
hint-title = Der beste Zug der Suche, auf dem Spielfeld gezeigt
hint-thinking = Denke nach…
hint-close = Tipp schließen
hint-none-online = Keine Tipps in einem Online-Spiel mit anderen Menschen.
outnumbered = ({ $who } überstimmt)

## Errors (hints)
error-no_hints = Keine Tipps in einem gewerteten Spiel oder einem Online-Spiel mit anderen Menschen.

## Ratings
account-profile = Dein Profil
home-rated = Gewertetes Spiel (nur zwischen Menschen, nie gegen einen Bot; angemeldet; Regeln einer Vorlage; Eingeladene melden sich an, um ihren Platz einzunehmen)
error-not_ratable = Dieses Spiel kann nicht gewertet werden.
game-rated = Gewertet
results-ratings = Wertungen
results-ratings-pending = Die Wertungen werden aktualisiert …

## Passkeys
account-of = Konto von { $name }
account-passkey-also = Du kannst dich auch ohne Passwort anmelden:
account-add-passkey = einen Passkey hinzufügen
error-passkeys_unavailable = Passkeys funktionieren unter dieser Adresse des Servers nicht.
error-challenge_expired = Das hat zu lange gedauert: versuche es noch einmal.
error-passkey_refused = Dieser Passkey wurde nicht angenommen.

## Account page and recovery
settings-title = Dein Konto
settings-signed-out = Du bist nicht angemeldet.
settings-signed-in-as = Angemeldet als { $name }.
settings-password-title = Passwort
settings-current-password = Aktuelles Passwort
settings-new-password = Neues Passwort
settings-password-others = Deine anderen Geräte werden dabei abgemeldet.
settings-password-change = Passwort ändern
settings-password-changed = Passwort geändert. Deine anderen Geräte sind abgemeldet.
settings-sessions-title = Geräte
settings-sessions-text = Auf einem Gerät angemeldet, das du nicht mehr hast? Melde dich überall ab, auch auf diesem Gerät.
settings-sign-out-everywhere = Überall abmelden
settings-delete-title = Konto löschen
settings-delete-text = Damit löschst du dein Konto, deine Wertungen, dein Profil und deine Passkeys endgültig. Gespielte Partien behalten ihre Züge; Listen zeigen „gelöschter Spieler“.
settings-delete-password = Dein Passwort, zur Bestätigung
settings-delete-button = Mein Konto löschen
settings-deleted-title = Dein Konto ist gelöscht
settings-deleted-text = Du kannst weiterhin als Gast spielen.
recover-forgot = Passwort vergessen?
recover-title = Neues Passwort setzen
recover-why = Mit dem Wiederherstellungscode, den du beim Anlegen des Kontos bekommen hast. Alle angemeldeten Geräte werden abgemeldet.
recover-code = Wiederherstellungscode
recover-submit = Neues Passwort setzen
recover-done = Willkommen zurück, { $name }
recover-next-code = Dein Passwort ist geändert. Der benutzte Code ist verbraucht: hier ist dein neuer Wiederherstellungscode, nur jetzt angezeigt. Schreib ihn auf oder bewahre ihn im Passwort-Manager auf.
lobby-signed-in-name = Angemeldet: du spielst als { $name }.
# Push notifications (written by the server in the subscription's language: services/push.rs)
push-turn-title = Du bist am Zug
push-turn-body = Du bist am Zug in Partie { $game } ({ $name } gegen { $others })
push-invite-title = Deine Einladung wurde angenommen
push-invite-body = Der Platz von { $name } in Partie { $game } ist besetzt

## Chat and rematch
home-chat-off = Kein Chat in diesem Spiel
error-chat_off = Der Chat ist in diesem Spiel aus.
error-empty_message = Die Nachricht ist leer.
error-message_too_long = Die Nachricht ist zu lang.
error-chat_too_fast = Zu viele Nachrichten: warte einen Moment.
error-chat_full = Der Chat der Spieler dieses Spiels ist voll.
error-chat_crowded = So viele Zuschauer haben in diesem Spiel geschrieben, dass nur noch Stammgäste dazukommen können: ein Konto, mindestens einen Tag alt, mit einer zu Ende gespielten gewerteten Partie.
error-chat_not_agreed = Der Chat wird nur heruntergeladen, wenn alle Spieler zugestimmt haben.
error-game_not_over = Das Spiel ist noch nicht vorbei.
error-already_accepted = Du hast die Revanche schon angenommen.

## Notifications
error-bad_subscription = Das Benachrichtigungs-Abo dieses Browsers wurde abgelehnt.
error-too_many_subscriptions = Für diesen Browser, diesen Platz oder deine Adresse werden schon zu viele Benachrichtigungen gehalten (ein Konto, das einen Tag alt ist und eine gewertete Partie gespielt hat, hat ein eigenes Kontingent).

## Clocks
error-bad_clock = Diese Bedenkzeit bietet der Server nicht an.
error-time_up = Deine Zeit ist abgelaufen: die anderen dürfen deinen Platz einem Bot geben.
error-not_away = Dieser Platz hat noch Zeit, oder sein Spieler ist noch nicht lange genug weg.
error-cannot_abort = Die Partie kann nicht mehr abgebrochen werden: alle Spieler haben schon gezogen.
error-cannot_end = Die Partie kann hier nicht beendet werden: keinem Platz ist gerade die Zeit abgelaufen.

## Lobby
nav-lobby = Lobby
nav-lobby-short = Lobby
nav-watch = Zuschauen
nav-watch-short = Zuschauen
watch-title = Partien zum Zuschauen
watch-page-title = Partien zum Zuschauen — Carcassonne
watch-about = Öffentliche laufende Partien, die der bestbewerteten Spieler zuerst, mit der Wertung jedes Spielers. Partien aus der Lobby und „Sofort spielen“ sind auch dabei.
watch-none = Gerade läuft keine öffentliche Partie.
home-watch-all = Alle Partien zum Zuschauen
lobby-watch = Laufende Partien zum Zuschauen
home-lobby-link = Online gegen Menschen spielen: die Lobby

## Errors (lobby)
error-already_paired = Du hast schon einen Gegner: dein Spiel beginnt.
error-already_seated = Du sitzt schon an diesem Tisch.
error-too_many_seats = Du hast schon vier Plätze an offenen Tischen: gib zuerst einen auf.
error-already_waiting = Du wartest schon: in einem anderen Tab oder Fenster, auf einem anderen Gerät, oder jemand unter deiner Adresse wartet.
error-name_taken_here = Jemand an diesem Tisch hat diesen Namen schon.
error-needs_socket = Die Lobby braucht ihre Live-Verbindung: lade die Seite neu.
error-not_host = Nur der Gastgeber des Tisches kann das.
error-rated_needs_preset = Ein gewerteter Tisch spielt eine Vorlage ohne Hausregeln.
error-seat_taken = Dieser Platz ist besetzt.
error-table_started = Dieser Tisch hat schon begonnen.
error-needs_history = Dieser Tisch ist für Stammgäste: ein Konto, mindestens einen Tag alt, mit einer zu Ende gespielten gewerteten Partie.
error-too_few_players = Ein Spiel braucht mindestens zwei Spieler.

## Clocks and your turn
clock-days-left = { $n ->
        [one] noch { $n } Tag
       *[other] noch { $n } Tage
    }
clock-hours-left = { $n ->
        [one] noch { $n } Stunde
       *[other] noch { $n } Stunden
    }
clock-minutes-left = { $n ->
        [one] noch { $n } Minute
       *[other] noch { $n } Minuten
    }
clock-under-a-minute = noch weniger als eine Minute
clock-out = Zeit abgelaufen
clock-minutes = { $n ->
        [one] { $n } Minute
       *[other] { $n } Minuten
    }
clock-seconds = { $n ->
        [one] { $n } Sekunde
       *[other] { $n } Sekunden
    }
clock-seat = Platz { $n }
clock-aborted = { $name } hatte keine Zeit mehr, bevor jemand gezogen hat: Die Partie ist abgebrochen
clock-ran-out = { $name } hat keine Zeit mehr
clock-bot-plays = Ein Bot ({ $level }) spielt für { $name }
clock-bot-plays-by = Ein Bot ({ $level }) spielt für { $name } (auf Wunsch von { $by })
clock-back = { $name } ist zurück und spielt wieder
clock-log-move = Zug { $n }
clock-panel = Uhren
clock-standin = Bot ({ $level }) spielt
clock-left = noch { $time }
clock-left-running = noch { $time }, läuft
clock-low = Noch { $time } auf deiner Uhr.
clock-handover-out = { $name } hat keine Zeit mehr und zieht nicht mehr. Den Platz einem Bot geben, um weiterzuspielen?
clock-handover-away = { $name } ist seit { $n ->
        [one] { $n } Minute
       *[other] { $n } Minuten
    } weg. Den Platz einem Bot geben, bis { $name } zurückkommt?
clock-bot-level = Bot-Stufe
clock-handover = Den Platz von { $name } einem Bot geben
clock-flagged-note = Deine Zeit ist abgelaufen: Ein Bot spielt deinen Platz bis zum Ende der Partie.
clock-takeback-note = Ein Bot spielt für dich, während du weg warst.
clock-takeback = Meinen Platz zurücknehmen
clock-none = Ohne Uhr
clock-realtime = Echtzeit { $m } Min. + { $s } s pro Zug
clock-custom = Echtzeit, eigene…
clock-turn = { $n ->
        [one] Rundenbasiert: { $n } Tag pro Zug
       *[other] Rundenbasiert: { $n } Tage pro Zug
    }
clock-legend = Uhr
clock-control = Bedenkzeit
clock-minutes-each = Minuten je Spieler
clock-increment = Sekunden dazu pro Zug
clock-away = Minuten Abwesenheit, bevor ein Bot einen Platz übernehmen darf
yourturn = Du bist dran
yourturn-title = Spiele, in denen du dran bist
yourturn-count = { $n ->
        [one] Du bist in { $n } Spiel dran
       *[other] Du bist in { $n } Spielen dran
    }
yourturn-game = { $name } gegen { $others }

## Rematch and notifications
rematch = Revanche
rematch-help = Dieselben Plätze und Regeln; der nächste Spieler beginnt
rematch-ready = Die Revanche ist bereit.
rematch-waiting = Revanche: warte auf { $names }.
rematch-watch = Die Revanche ansehen
push-on = Benachrichtigen, wenn ich dran bin: an (zum Ausschalten klicken)
push-off = Benachrichtigen, wenn ich dran bin: aus (zum Einschalten klicken)
push-busy = Benachrichtigen, wenn ich dran bin: frage nach…
push-blocked = Benachrichtigen, wenn ich dran bin: Benachrichtigungen sind für diese Seite in den Browser-Einstellungen gesperrt
push-unavailable = Benachrichtigen, wenn ich dran bin: dieser Browser kann von dieser Seite keine Benachrichtigungen empfangen

## Chat
chat-empty = Noch keine Nachrichten.
chat-phrase-good-game = Gutes Spiel
chat-phrase-nice-move = Schöner Zug
chat-phrase-one-moment = Einen Moment
chat-phrase-your-turn = Du bist dran, wenn du so weit bist
chat-phrase-thanks = Danke!
chat-phrases = Schnelle Sätze
chat-message = Nachricht
chat-send = Senden
chat-show = Chat zeigen
chat-muted-one = { $name } ist stummgeschaltet
chat-unmuted-one = { $name } ist nicht mehr stummgeschaltet
chat-title = Chat
chat-title-new = Chat ({ $n } neu)
chat-note = Spieler sehen den Chat der Spieler; der Chat der Zuschauer erscheint nach dem Spiel.
chat-watching = { $name } (schaut zu)
chat-mute = Stumm
chat-mute-name = { $name } stummschalten
chat-muted = Stummgeschaltet:
chat-unmute-name = { $name } wieder zeigen
chat-new-hidden = { $n ->
        [one] Eine Nachricht eines neuen Zuschauers ist ausgeblendet (du hast einen Zuschauer stummgeschaltet).
       *[other] { $n } Nachrichten neuer Zuschauer sind ausgeblendet (du hast einen Zuschauer stummgeschaltet).
    }
chat-show-new = Anzeigen
chat-offer = Diesen Chat zum Herunterladen mit der Partie anbieten
chat-agreed = { $agreed } von { $n } Spielern haben dem Herunterladen des Chats zugestimmt.
chat-download = Chat herunterladen

## Passkeys (sign-in)
passkey-or = oder
passkey-sign-in = Mit einem Passkey anmelden

## Outnumbered followers
outnumbered-part = { $n ->
        [one] { $role } von { $name }
       *[other] { $n } × { $role } von { $name }
    }
word-and = und

## Lobby, profiles, leaderboard
# (web/js/lobby.js, profile.js, leaderboard.js, the account page's passkeys
# in passkeys.js, and push.js's messages)

lobby-title = Lobby
lobby-play-now = Sofort spielen
lobby-play-now-about = Die Regeln deiner Wahl, gegen wen auch immer gerade auf sie wartet (Spieler mit ähnlicher Wertung zuerst).
lobby-your-name = Dein Name
lobby-bot-after = Wenn niemand kommt, ein Bot nach
lobby-never = nie: weiter warten
lobby-stop-waiting = Nicht mehr warten
lobby-open-title = Einen Tisch eröffnen
lobby-other-seats = Die anderen Plätze
lobby-add-seat = + Platz hinzufügen
lobby-preset-standard = Standard
lobby-preset-beginner = Einsteiger
lobby-preset-first-edition = Erstausgabe
lobby-rated = Gewertet (angemeldete Menschen, keine Bots, Regeln ohne Hausregeln)
lobby-known-only = Nur Stammgäste (Konten, mindestens einen Tag alt, mit einer gewerteten Partie)
lobby-open-go = Tisch eröffnen
lobby-tables-title = Offene Tische
lobby-connecting = Verbinde…
lobby-live = Live: Tische erscheinen, sobald sie eröffnet werden.
lobby-reconnecting = Verbinde neu…
lobby-new-table = Neuer Tisch von { $host }, { $free ->
        [one] { $free } Platz frei
       *[other] { $free } Plätze frei
    }.
lobby-table-gone = Der Tisch von { $host } wurde geschlossen.
lobby-your-table-gone = Ein Tisch, an dem du saßt, wurde geschlossen
lobby-seat = Platz { $n }
lobby-seat-open = Frei für einen Spieler
lobby-level = Stufe
lobby-remove-seat = Platz { $n } entfernen
lobby-no-tables = Noch kein offener Tisch: eröffne einen oder drücke „Sofort spielen“.
lobby-open = frei
lobby-sit = Hinsetzen
lobby-sit-label = Hinsetzen: Platz { $n } am Tisch von { $host }
lobby-bot-seat = (Bot, { $level })
lobby-host = (Gastgeber)
lobby-you = (du)
lobby-seat-of = Platz { $n }:
lobby-start = Partie starten
lobby-close-table = Tisch schließen
lobby-stand = Aufstehen
lobby-table-of = Tisch von { $host }
lobby-badge-rated = gewertet
lobby-badge-casual = ungewertet
lobby-the-rules = Die Regeln
lobby-seats-free = { $total ->
        [one] { $free } von { $total } Platz frei
       *[other] { $free } von { $total } Plätzen frei
    }
lobby-host-rating = Wertung des Gastgebers { $rating } ({ $pool })
lobby-badge-known = nur Stammgäste
lobby-known-only-seat = für Stammgäste
lobby-seats = Plätze
lobby-sat-down = Du hast dich hingesetzt: die Partie öffnet sich, sobald sie beginnt
lobby-table-opened = Dein Tisch ist offen: er beginnt, sobald er voll ist oder du ihn startest
lobby-paired-bot = Niemand ist gekommen: eine Partie gegen einen Bot beginnt.
lobby-paired = Gegner gefunden: die Partie beginnt.
lobby-looking = Suche einen Mitspieler… { $s } s
lobby-stopped = Warten beendet.
lobby-wait-ended = Dein Warten ist beendet: drücke „Sofort spielen“, um wieder zu suchen.
profile-loading = Lade das Profil…
profile-not-found = Diesen Spieler gibt es nicht
profile-nobody = Niemand spielt hier unter dem Namen „{ $name }“.
profile-see-leaderboard = Zur Rangliste
profile-page-title = { $name } — Carcassonne
profile-pool-duel = Grundspiel, zwei Spieler (Glicko-2)
profile-pool-multi = Grundspiel, drei bis sechs Spieler (Weng-Lin)
profile-provisional = vorläufig
profile-provisional-title = { $n ->
        [one] Weniger als { $n } gewertete Partie
       *[other] Weniger als { $n } gewertete Partien
    }
profile-rated-games = { $n ->
        [one] { $n } gewertete Partie
       *[other] { $n } gewertete Partien
    }
profile-chart = { $n ->
        [one] Wertung über { $n } gewertete Partie
       *[other] Wertung über { $n } gewertete Partien
    }: von { $first } auf { $last }, niedrigste { $low }, höchste { $high }.
profile-history = Verlauf der Wertung als Tabelle
profile-history-caption = Wertung nach jeder gewerteten Partie
profile-col-game = Partie
profile-col-place = Platz
profile-col-before = Vorher
profile-col-after = Nachher
profile-ratings = Wertungen
profile-no-rated = Noch keine gewerteten Partien.
profile-bot = (Bot, { $level })
profile-result-won = gewonnen
profile-result-lost = verloren
profile-result-shared-win = geteilter Sieg
profile-result-in-play = läuft
profile-rated = gewertet
profile-replay = Wiederholung
profile-review = Analyse
profile-watch = Zuschauen
profile-no-games = Noch keine Partien.
profile-games = Partien
profile-filters = Partien filtern
profile-filter-rated-label = Gewertet
profile-filter-clock-label = Uhr
profile-filter-result-label = Ergebnis
profile-filter-all = Alle
profile-filter-rated = Nur gewertete
profile-filter-casual = Nur ungewertete
profile-filter-realtime = Echtzeit
profile-filter-turn = Zugweise
profile-filter-none = Keine Partie passt zu diesen Filtern.
profile-col-won = Gewonnen
profile-col-win-rate = Siegquote
profile-since = Spielt seit { $date }
profile-leaderboard = Rangliste
profile-win-rates = Siegquoten
profile-by-rules = Nach Regeln
profile-col-rules = Regeln
profile-by-players = Nach Anzahl der Spieler
profile-col-players = Spieler
profile-no-finished = Noch keine beendeten Partien.
leaderboard-loading = Lade die Rangliste…
leaderboard-title = Rangliste
leaderboard-page-title = Rangliste — Carcassonne
leaderboard-duel = Zwei Spieler
leaderboard-multi = Drei bis sechs Spieler
leaderboard-col-rank = Platz
leaderboard-col-player = Spieler
leaderboard-col-rating = Wertung
leaderboard-col-games = Partien
leaderboard-col-bot = Bot
leaderboard-nobody = { $n ->
        [one] Noch niemand: ein Spieler erscheint hier nach { $n } gewerteten Partie.
       *[other] Noch niemand: ein Spieler erscheint hier nach { $n } gewerteten Partien.
    }
leaderboard-about = { $n ->
        [one] Nur gewertete Partien. Eine Wertung ist in ihrer ersten Partie vorläufig.
       *[other] Nur gewertete Partien. Eine Wertung ist in ihren ersten { $n } Partien vorläufig.
    }
leaderboard-bots = Bots
leaderboard-bots-about = Wie stark jeder Bot auf der Wertungsskala ist, gemessen in Partien von Bots gegeneinander. Partien gegen einen Bot werden nie gewertet.
passkeys-title = Passkeys
passkeys-about = Mit einem Passkey meldest du dich per Fingerabdruck, Gesicht oder Geräte-PIN statt mit deinem Passwort an. Dein Passwort funktioniert weiterhin.
passkeys-name-label = Name des neuen Passkeys (freiwillig)
passkeys-name-placeholder = z. B. Mein Handy
passkeys-add = Passkey hinzufügen
passkeys-no-browser = Dieser Browser kann keine Passkeys verwenden.
passkeys-none = Noch keine Passkeys.
passkeys-added-on = Hinzugefügt am { $date }
passkeys-last-used = zuletzt verwendet am { $date }
passkeys-not-used = noch nicht verwendet
passkeys-remove = Entfernen
passkeys-remove-named = Passkey { $name } entfernen
passkeys-waiting = Warte auf deinen Passkey…
passkeys-added = Passkey hinzugefügt. Du kannst dich jetzt damit anmelden.
passkeys-removed = Passkey { $name } entfernt.
passkey-not-used = Es wurde kein Passkey verwendet (abgebrochen, oder keiner für diese Seite).
passkey-already-added = Dieser Passkey gehört schon zu deinem Konto.
passkey-refused = Dieser Passkey wurde nicht angenommen. Gehört er zu diesem Konto?
passkey-failed = der Passkey hat nicht funktioniert
push-will-notify = Du wirst benachrichtigt, wenn du dran bist
push-no-more = Keine Benachrichtigungen mehr für diese Partie
push-on-failed = Benachrichtigungen konnten nicht eingeschaltet werden: { $reason }
push-off-failed = Benachrichtigungen konnten nicht ausgeschaltet werden: { $reason }
push-no-worker = der Service Worker ist nicht bereit
push-cannot = Dieser Browser kann von dieser Seite keine Benachrichtigungen empfangen (nötig sind https und ein Browser mit Web Push).

## Tutorial, puzzles, review
## Die Wörter der Lernansichten (learn.js, practice.js, puzzles.js, review.js,
## hint.js und das „Warum“ einer Wertung in panels.js). Die Texte der
## Lektionen sind lesson-KEY-title, -intro, -goal und -done, KEY der Schlüssel
## einer Lektion in web/learn/lessons.json. Fakten der Engine ($side, $ours,
## $theirs, $feature, $role einer Regel; eine Richtung $from oder $dir; ein
## Gebiet $what) kommen als ihre englischen Codes, für Selektoren.

### Das Tutorial
learn-title = Spielen lernen
learn-intro = Kurze Lektionen auf dem echten Spielfeld. Jede stellt eine Stellung auf; du machst den Zug, und die Regel-Engine des Spiels prüft ihn.
learn-progress = { $done } von { $total } Lektionen geschafft
learn-you = Du
learn-check = Diesen Zug spielen
learn-retry = Noch einmal
learn-show = Zeig es mir
learn-next = Nächste Lektion
learn-back = Alle Lektionen
learn-done-badge = geschafft
learn-reset = Meinen Fortschritt vergessen
learn-go-on = Weiter
learn-start = Los geht’s
learn-lesson-of = Lektion { $n } von { $total }
learn-goal-label = Ziel:
learn-undo = Zurücknehmen
learn-refused = Nicht erlaubt
learn-keys = Tasten: Pfeile bewegen das Plättchen, R dreht es, F wählt einen Gefolgsmann, Enter spielt, Esc nimmt zurück.
learn-place-first = Leg das Plättchen zuerst auf das Spielfeld: tippe oder klicke auf ein Feld neben einem Plättchen, oder nimm die Pfeiltasten.
learn-no-follower = Kein Gefolgsmann
learn-recall = Den Abt zurückholen
learn-checking = Wird geprüft…
learn-solved = Gut gemacht!
learn-finished-all = Du hast alle Lektionen geschafft. Versuch ein Rätsel, oder fang ein Spiel an.
learn-loading = Die Lektionen werden geladen…
learn-load-failed = Die Lektionen können nicht geladen werden (HTTP { $status }).
learn-placed = { $place }, um { $deg }° gedreht
learn-move = { $tile }, { $place }, um { $deg }° gedreht, { $follower }
learn-points = { $points ->
        [one] { $points } Punkt
       *[other] { $points } Punkte
    } ({ $what })
learn-what-final = { $what }, am Ende
learn-what-recall = Abt zurückgeholt
learn-goal-miss = Die Regeln erlauben diesen Zug, aber er tut nicht, was diese Lektion verlangt: { $goal }
learn-goal-miss-scored = Dieser Zug bringt { $scored }; die Lektion verlangt: { $goal }
learn-goal-miss-deploy = Die Regeln erlauben diesen Zug, aber die Lektion will deinen { $role ->
        [abbot] Abt
        [knight] Ritter
        [thief] Wegelagerer
        [monk] Mönch
        [farmer] Bauern
        [builder] Baumeister
        [pig] Schwein
       *[other] Gefolgsmann
    } auf dem Spielfeld sehen.

### Warum die Regeln einen Zug ablehnen (nach dem Regelcode der Engine)
learn-error-edge_mismatch = Diese Kante legt { $ours ->
        [city] eine Stadt
        [road] eine Straße
        [river] den Fluss
       *[field] eine Wiese
    } an { $theirs ->
        [city] eine Stadt
        [road] eine Straße
        [river] den Fluss
       *[field] eine Wiese
    } (die { $side ->
        [north] nördliche
        [east] östliche
        [south] südliche
       *[west] westliche
    } Kante des Plättchens). Jede Kante muss ihre Nachbarin fortsetzen: Straße an Straße, Stadt an Stadt, Wiese an Wiese. Dreh das Plättchen (R) oder versuch ein anderes Feld.
learn-error-not_adjacent = Ein Plättchen muss ein schon liegendes Plättchen mit einer ganzen Seite berühren, nicht nur an einer Ecke.
learn-error-cell_occupied = Dort liegt schon ein Plättchen.
learn-error-feature_occupied = { $feature ->
        [city] In dieser Stadt
        [road] Auf dieser Straße
       *[field] Auf dieser Wiese
    } steht schon ein { $role ->
        [knight] Ritter
        [thief] Wegelagerer
        [farmer] Bauer
        [monk] Mönch
       *[other] Gefolgsmann
    }: Du darfst einen Gefolgsmann nur auf eine Straße, Stadt oder Wiese setzen, die noch niemand besetzt hat, auch nicht über ein weiter entfernt angeschlossenes Stück.
learn-error-bad_spot = Diesen Platz gibt es auf diesem Plättchen nicht.
learn-error-farmers_off = Mit diesen Regeln (ohne Wiesenwertung) spielt niemand Bauern: Wiesen bringen nie Punkte. Setz deinen Gefolgsmann auf eine Straße, eine Stadt oder ein Kloster, oder gar nicht.
learn-error-no_follower = Du hast keinen Gefolgsmann mehr: alle stehen auf dem Spielfeld.
learn-error-river_not_continued = Ein Flussplättchen muss den Fluss an seinem offenen Ende fortsetzen.
learn-error-river_u_turn = Der Fluss darf nicht zweimal hintereinander in dieselbe Richtung abbiegen (keine Kehrtwende).
learn-error-garden_for_abbot = Nur der Abt darf in einem Garten stehen: wähl den Abt (A), keinen Gefolgsmann.
learn-error-abbot_spot = Der Abt kommt nur in ein Kloster oder einen Garten.
learn-error-abbot_in_use = Dein Abt steht schon auf dem Spielfeld: stattdessen kannst du ihn zurückholen (er wird gewertet, wie er steht).
learn-error-abbot_not_placed = Dein Abt steht nicht auf dem Spielfeld, es gibt also nichts zurückzuholen.
learn-error-recall_complete = Dieses Plättchen vollendet das Kloster oder den Garten des Abts: er wird voll gewertet und kann daher nicht zurückgeholt werden.
learn-error-no_abbot = Mit diesen Regeln ist der Abt nicht im Spiel.
learn-error-other = Die Regeln erlauben diesen Zug nicht: { $message }

### Die Lektionen
lesson-lay-title = Ein Plättchen legen
lesson-lay-intro = In jedem Zug ziehst du ein Plättchen und legst es an die Plättchen, die schon auf dem Tisch liegen. Das Startplättchen hat oben eine Stadt und quer hindurch eine Straße. Dein Plättchen, eine Straßenkurve, muss fortsetzen, was es berührt: Straße an Straße, Stadt an Stadt, Wiese an Wiese.
lesson-lay-goal = Leg die Straßenkurve so, dass sie das Spielfeld mit passenden Kanten berührt.
lesson-lay-done = Das ist ein Zug: das Plättchen passt. Du hättest auch einen Gefolgsmann daraufsetzen können. Leg dieselbe Kurve umgedreht, und die Regeln erklären, warum sie nicht passt.
lesson-road-title = Straßen und Wegelagerer
lesson-road-intro = Ein Gefolgsmann auf einer Straße ist ein Wegelagerer. Du hast einen Wegelagerer auf die Straße westlich vom Start gesetzt; dort endet sie an einer Kreuzung. Eine Straße ist fertig, wenn beide Enden abgeschlossen sind (an einer Kreuzung, einer Stadt, einem Kloster oder als Schleife). Eine fertige Straße bringt dem Besitzer des Wegelagerers 1 Punkt je Plättchen, und der Wegelagerer kommt zurück.
lesson-road-goal = Schließ deine Straße mit diesem Kreuzungsplättchen ab: sie bringt 3 Punkte (3 Plättchen).
lesson-road-done = 3 Plättchen, 3 Punkte, und dein Wegelagerer ist wieder in deinem Vorrat. Einen zweiten Wegelagerer hättest du nicht auf dieselbe Straße setzen können: dort steht schon deiner.
lesson-city-title = Städte, Ritter und Wappen
lesson-city-intro = Ein Gefolgsmann in einer Stadt ist ein Ritter. Dein Ritter besetzt die Stadt über dem Start; ihr Plättchen hat ein Wappen. Eine fertige Stadt bringt 2 Punkte je Plättchen und 2 mehr für jedes Wappen.
lesson-city-goal = Schließ die Stadt mit der Stadtkante deines Plättchens: 3 Plättchen und 1 Wappen ergeben 8 Punkte.
lesson-city-done = 2 × 3 Plättchen + 2 für das Wappen = 8 Punkte, und der Ritter kommt zurück. Eine Stadt, die am Spielende noch offen ist, bringt nur 1 je Plättchen und 1 je Wappen.
lesson-cloister-title = Klöster und Mönche
lesson-cloister-intro = Ein Gefolgsmann in einem Kloster ist ein Mönch. Dein Mönch steht im Kloster südlich vom Start, und 7 der 8 Felder ringsum sind belegt. Ein Kloster ist fertig, wenn alle 8 belegt sind: es bringt 9 Punkte (1 für sich selbst und 1 für jeden Nachbarn).
lesson-cloister-goal = Belege das letzte Feld rund um das Kloster: dein Mönch bringt 9 Punkte.
lesson-cloister-done = 9 Punkte. Jeder darf die Felder um ein Kloster belegen; die Punkte bekommt der Besitzer des Mönchs.
lesson-share-title = Eine Stadt teilen
lesson-share-intro = Dein Ritter besetzt die kleine Stadt nordwestlich vom Start, Beas Ritter die im Nordosten; die Stadt des Startplättchens liegt dazwischen. Niemand darf einen Ritter in eine Stadt setzen, in der schon einer steht, aber ein Plättchen darf getrennt besetzte Städte verbinden. Wird ein verbundenes Gebiet fertig, wertet es, wer die meisten Gefolgsleute darin hat; bei Gleichstand bekommt jeder der Gleichstehenden die vollen Punkte.
lesson-share-goal = Leg das große Stadtplättchen über den Start, sodass es die drei Städte verbindet und abschließt: je ein Ritter, also bekommen du und Bea jeweils 10 Punkte (4 Plättchen und ein Wappen).
lesson-share-done = 4 Plättchen × 2 + 2 für das Wappen = 10 Punkte für jeden: ein Gleichstand teilt nichts, er zahlt beiden die vollen Punkte. Beide Ritter kommen zurück.
lesson-majority-title = Ein Gebiet teilen und übernehmen
lesson-majority-intro = Du darfst keinen Ritter in eine Stadt setzen, in der schon einer steht, aber zwei getrennt besetzte Städte können später verbunden werden. Dann bekommt, wer die meisten Gefolgsleute darin hat, alle Punkte; bei Gleichstand bekommt jeder der Gleichstehenden die vollen Punkte. Du besetzt zwei kleine Städte (nördlich vom Start und zwei nach Norden, eins nach Osten); Beas Ritter besetzt die Stadt östlich vom Start.
lesson-majority-goal = Verbinde die drei Städte zu einer und schließ sie ab: deine zwei Ritter schlagen Beas einen, und du bekommst alle 10 Punkte.
lesson-majority-done = 5 Plättchen × 2 = 10 Punkte, alle für dich: zwei Ritter gegen einen. Bei je einem hättet ihr beide 10 bekommen. Alle Gefolgsleute darin kommen zurück.
lesson-farm-per-farm-title = Bauern: die Standardregel (pro Wiese)
lesson-farm-per-farm-intro = Ein Gefolgsmann, der auf einer Wiese liegt, ist ein Bauer. Wiesen werden erst am Spielende gewertet: mit der Standardregel (pro Wiese) bringt jede Wiese dem Besitzer ihrer Bauern 3 Punkte für jede fertige Stadt, die sie berührt. Eine Stadt kann dir über zwei Wiesen zweimal Punkte bringen. Deine Bauern liegen auf zwei Wiesen: der Wiese zwischen den beiden Städten über dem Start und der Wiese nördlich der Straße östlich davon.
lesson-farm-per-farm-goal = Leg das letzte Plättchen so, dass es die obere Stadt abschließt. Dann endet das Spiel: die erste Wiese berührt 2 fertige Städte (6 Punkte), die zweite 1 (3 Punkte).
lesson-farm-per-farm-done = 6 + 3 = 9 Punkte: die Stadt über dem Start hat dir zweimal Punkte gebracht, einmal über jede Wiese.
lesson-farm-per-farm-once-title = Bauern: jede Stadt zahlt einmal (eine Option)
lesson-farm-per-farm-once-intro = Dasselbe Spielfeld mit der Wiesenregel „pro Wiese, einmal“ (die Überarbeitung von 2001): Wiesen werden wie zuvor gewertet, aber jede fertige Stadt zahlt jedem Spieler nur einmal, egal wie viele ihrer Wiesen er besetzt.
lesson-farm-per-farm-once-goal = Schließ die obere Stadt mit dem letzten Plättchen ab: die beiden fertigen Städte bringen dir je 3, also 6 Punkte.
lesson-farm-per-farm-once-done = 6 Punkte, nicht 9: die Stadt über dem Start zahlt dir nur einmal, obwohl zwei deiner Wiesen sie berühren.
lesson-farm-per-city-title = Bauern: die Regeln der ersten Ausgabe (pro Stadt)
lesson-farm-per-city-intro = Dasselbe Spielfeld mit der Wiesenregel „pro Stadt“ (die erste Ausgabe): für jede fertige Stadt zählt man die Bauern jedes Spielers auf allen Wiesen, die sie berühren; wer die meisten hat, bekommt 4 Punkte für diese Stadt.
lesson-farm-per-city-goal = Schließ die obere Stadt mit dem letzten Plättchen ab: jede der beiden fertigen Städte bringt dir 4, also 8 Punkte.
lesson-farm-per-city-done = 4 + 4 = 8 Punkte: eine Zahlung je fertiger Stadt, an den Spieler mit den meisten Bauern drumherum.
lesson-farm-off-title = Keine Bauern: die Einsteigerregeln
lesson-farm-off-intro = Dasselbe Spielfeld ohne Wiesenwertung (wie die Regeln es für die ersten Spiele empfehlen): niemand darf einen Bauern auf eine Wiese legen, und Wiesen bringen nie Punkte.
lesson-farm-off-goal = Schließ die obere Stadt mit einem Ritter darin ab: eine Stadt aus 2 Plättchen, 4 Punkte.
lesson-farm-off-done = 4 Punkte für die Stadt und nichts für die Wiesen. Versuch, einen Bauern zu legen: die Regeln lehnen es ab.
lesson-final-title = Die Schlusswertung
lesson-final-intro = Wenn das letzte Plättchen liegt, bringt jeder Gefolgsmann, der noch auf dem Spielfeld steht, was er besetzt, auch unfertig: eine Straße 1 je Plättchen, eine Stadt 1 je Plättchen und 1 je Wappen, ein Kloster 1 plus 1 je Nachbar; danach die Wiesen. Dies ist das letzte Plättchen des Spiels.
lesson-final-goal = Leg das Stadtplättchen mit seinem Wappen über den Start, mit einem Ritter in der Stadt: am Ende bringt die offene Stadt 3 Punkte (2 Plättchen und 1 Wappen).
lesson-final-done = Eine unfertige Stadt bringt die Hälfte: 1 je Plättchen, 1 je Wappen. Geschlossen wären es 6 gewesen.
lesson-river-title = Der Fluss
lesson-river-intro = Mit dem Fluss beginnt das Spiel an der Quelle, und die Flussplättchen werden zuerst gezogen. Jedes muss den Fluss an seinem offenen Ende fortsetzen; der Fluss macht nie kehrt. Straßen, Städte und Wiesen daneben werden wie gewohnt gespielt.
lesson-river-goal = Leg das Flussplättchen unter die Quelle, sodass der Fluss weiterfließt.
lesson-river-done = Der Fluss fließt weiter. Wenn er den See erreicht, beginnen die gewöhnlichen Plättchen.
lesson-abbot-garden-title = Der Abt und der Garten
lesson-abbot-garden-intro = Mit dem Abt hat jeder Spieler zusätzlich einen Abt. Er kommt nur in ein Kloster oder einen Garten (das grüne Stück auf manchen Plättchen), und nur er darf in einem Garten stehen. Ein Garten wird wie ein Kloster gewertet: 9, wenn er umschlossen ist, am Ende 1 + Nachbarn.
lesson-abbot-garden-goal = Leg das Plättchen mit dem Garten über den Start und setz deinen Abt (A) in den Garten.
lesson-abbot-garden-done = Dein Abt pflegt den Garten. Ein Gefolgsmann darf dort nicht stehen: nur ein Abt.
lesson-abbot-recall-title = Den Abt zurückholen
lesson-abbot-recall-intro = Statt einen Gefolgsmann auf das gelegte Plättchen zu setzen, darfst du deinen Abt zurückholen: er bringt sofort, was sein Kloster oder Garten jetzt wert ist (1 + jedes Plättchen ringsum), und kommt zu dir zurück.
lesson-abbot-recall-goal = Leg das Klosterplättchen westlich vom Garten und hol deinen Abt zurück: 1 + 4 Nachbarn = 5 Punkte.
lesson-abbot-recall-done = 5 Punkte sofort, und dein Abt ist wieder frei. Das war das letzte Plättchen: die Straße deines Wegelagerers bringt dann am Ende 3.

### Rätsel
puzzle-loading = Die Rätsel werden geladen…
puzzle-load-failed = Die Rätsel können nicht geladen werden (HTTP { $status }).
puzzle-player = Spieler { $n }
puzzle-title = Rätsel
puzzle-intro = Stellungen aus Spielen zwischen Bots, in denen ein Zug klar der beste ist: die Suche erwartet, dass du mit ihm das Spiel um mindestens { $gap } Punkte besser beendest als mit jedem anderen Zug, bei zwei getrennten Stichproben der kommenden Plättchen. Du siehst, was der Spieler sah: das Spielfeld, die Punkte, das zu legende Plättchen und wie viele von jedem Plättchen übrig sind, nie die Reihenfolge im Beutel.
puzzle-today = Rätsel des Tages
puzzle-progress = { $done } von { $total } gelöst
puzzle-name = Zug { $turn }: der beste von { $legal } Zügen
puzzle-solved-badge = gelöst
puzzle-all = Alle Rätsel
puzzle-bag = { $count } Plättchen im Beutel
puzzle-bag-list = Welche Plättchen noch übrig sind
puzzle-goal = Finde den klar besten Zug: das Feld, die Drehung des Plättchens und den Gefolgsmann (oder keinen). Die Suche erwartet, dass er mindestens { $gap } Punkte mehr wert ist als jeder andere.
puzzle-show = Lösung zeigen
puzzle-next = Nächstes Rätsel
puzzle-right = Richtig!
puzzle-explain = Der beste Zug: { $best }. Die Suche erwartet danach für dich ein Spielende mit { $margin } Punkten gegenüber dem besten anderen Spieler; der zweitbeste Zug, { $second }, liegt { $gap } Punkte dahinter.
puzzle-wrong = Die Regeln erlauben ihn, aber es ist nicht der klar beste Zug. Deiner: { $yours }; er bringt jetzt { $scored ->
        [one] { $scored } Punkt
       *[other] { $scored } Punkte
    }.
puzzle-hint = Tipp: der beste Zug liegt { $beside }. Versuch es noch einmal, oder lass dir die Lösung zeigen.
puzzle-beside = neben { $list }
puzzle-beside-part = { $what ->
        [city] der Stadt
        [road] der Straße
       *[cloister] dem Kloster
    } im { $dir ->
        [north] Norden
        [east] Osten
        [south] Süden
       *[west] Westen
    }
puzzle-answer-beside = { $move }, { $beside }

### Die Spielanalyse (im Wiedergabe-Betrachter)
review-title = Analyse
review-progress = Die Suche analysiert das Spiel: { $done } von { $total } Zügen…
review-load-failed = Die Analyse konnte nicht geladen werden.
review-step = Geh durch das Spiel, um zu sehen, was die Suche von jedem Zug hielt.
review-better = Zug { $turn }, { $name }: besser war { $tile } { $better }: { $gain }.
review-agrees = Zug { $turn }, { $name }: die Suche stimmt zu.
review-played = Gespielt: { $move }.
review-show-better = Auf dem Spielfeld zeigen
review-back-to-played = Zurück zum gespielten Zug
review-totals = Punkte, die durch bessere Züge verloren gingen, wie die Suche sie erwartet: { $totals }
review-totals-about = Der Wert des besten Zugs der Suche minus der des gespielten Zugs, jeweils der mittlere Endabstand über zufällige Plättchenfolgen (Budget { $budget } je Zug)
review-curve-dot = Zug { $turn }: { $lost } erwartet
review-curve-axis = Zug
review-banner = Zug { $turn }: besser für { $name } war { $tile } { $better }
review-move = { $where }, { $follower }
review-where = { $from ->
        [north] nördlich
        [north-east] nordöstlich
        [east] östlich
        [south-east] südöstlich
        [south] südlich
        [south-west] südwestlich
        [west] westlich
       *[north-west] nordwestlich
    } { $what ->
        [cloister] des Klosters
        [garden] des Gartens
        [city] der Stadt
        [road] der Straße
        [field] der Wiese
        [city-tile] des Plättchens mit einer Stadt
        [road-tile] des Plättchens mit einer Straße
       *[start] des Startplättchens
    }
review-held = { $where } mit dem { $role ->
        [knight] Ritter
        [thief] Wegelagerer
        [monk] Mönch
        [abbot] Abt
       *[farmer] Bauern
    } von { $name }
review-beside = neben dem { $what ->
        [cloister] Kloster
       *[garden] Garten
    }
review-where-and = { $first } und { $second }
review-same-place = dieselbe Stelle
review-same-place-turned = dieselbe Stelle, { $turn ->
        [1] um eine Vierteldrehung gedreht
        [2] halb herum gedreht
       *[3] um drei Viertel gedreht
    }
review-follower-none = kein Gefolgsmann
review-follower-recall = den Abt zurückholen
review-gain-little = ein wenig mehr ({ $points } Punkte)
review-gain-about = etwa { $n ->
        [one] { $n } Punkt
       *[other] { $n } Punkte
    } mehr

### Der Satz des Tipps
hint-looking = Die Suche sucht einen guten Zug…
hint-words = Tipp: { $where }, { $follower } – { $gain }.
hint-gain = { $gain } als dein durchschnittlicher Zug
hint-gain-none = etwa so gut wie dein durchschnittlicher Zug: hier sind alle Züge ungefähr gleich viel wert
hint-error-rate_limited = Zu viele Tipps: warte einen Moment und versuch es noch einmal.
hint-error-busy = Die Suche ist beschäftigt: versuch es gleich noch einmal.
hint-error-stale_version = Das Spiel ist weitergegangen: frag noch einmal.
hint-error-other = Kein Tipp: { $message }

### Warum eine Wertung zählte (auf dem Spielfeld gezeigt)
why-road = Eine fertige Straße aus { $tiles } Plättchen: { $tiles } × 1 = { $points ->
        [one] { $points } Punkt
       *[other] { $points } Punkte
    }.
why-road-final = Eine unfertige Straße aus { $tiles } Plättchen: { $tiles } × 1 = { $points ->
        [one] { $points } Punkt
       *[other] { $points } Punkte
    }.
why-city = { $state ->
        [final] Eine unfertige Stadt
        [small] Eine fertige kleine Stadt
       *[done] Eine fertige Stadt
    } aus { $tiles } Plättchen{ $shields ->
        [0] {""}
       *[other] {" "}und { $shields } Wappen
    }: { $tiles } × { $each }{ $shields ->
        [0] {""}
       *[other] {" "}+ { $shields } × { $each }
    } = { $points ->
        [one] { $points } Punkt
       *[other] { $points } Punkte
    }.
why-cloister = { $kind ->
        [garden] Ein Garten
       *[cloister] Ein Kloster
    } mit allen 8 Plättchen ringsum: 1 + 8 = { $points } Punkte.
why-cloister-final = { $kind ->
        [garden] Ein unfertiger Garten
       *[cloister] Ein unfertiges Kloster
    }: 1 + { $around } Plättchen ringsum = { $points ->
        [one] { $points } Punkt
       *[other] { $points } Punkte
    }.
why-farm = Eine Wiese, die { $cities ->
        [one] { $cities } fertige Stadt
       *[other] { $cities } fertige Städte
    } versorgt: { $cities } × { $each } = { $points ->
        [one] { $points } Punkt
       *[other] { $points } Punkte
    }.
why-points = { $points ->
        [one] { $points } Punkt
       *[other] { $points } Punkte
    }.
why-roles = { $role ->
        [knight] Ritter
        [thief] Wegelagerer
        [monk] Mönche
        [farmer] Bauern
        [abbot] Äbte
       *[other] Gefolgsleute
    }
why-most = { $names } { $n ->
        [one] hatte
       *[other] hatten
    } die meisten { $roles } darauf: { $n ->
        [one] { $points } Punkte
       *[other] jeder bekommt { $points }
    }.
why-alone = Nur { $name } hatte { $n ->
        [one] { $code ->
            [knight] einen Ritter
            [thief] einen Wegelagerer
            [monk] einen Mönch
            [farmer] einen Bauern
            [abbot] einen Abt
           *[other] einen Gefolgsmann
        }
       *[other] { $n } { $roles }
    } darauf.
why-tie = Gleich viele { $roles } ({ $tally }): { $names } bekommen je { $points } Punkte.
why-beat = { $name } hatte die meisten { $roles } ({ $tally }) und bekommt { $points } Punkte; die anderen nichts.
why-counted = { $n ->
        [one] Der hervorgehobene Gefolgsmann zählte.
       *[other] Die hervorgehobenen Gefolgsleute zählten.
    }
why-counted-beaten = { $n ->
        [one] Der hervorgehobene Gefolgsmann zählte
       *[other] Die hervorgehobenen Gefolgsleute zählten
    }; { $beaten } { $m ->
        [one] war überstimmt und bekam nichts
       *[other] waren überstimmt und bekamen nichts
    }.

## Eine Partie vorzeitig beenden: aufgeben, verlassen, abbrechen, beim Zeitablauf beenden (clock.js)
end-resign = Aufgeben
end-resign-seat = Für { $name } aufgeben
end-leave = Partie verlassen
end-leave-seat = Für { $name } verlassen
end-panel = Die Partie beenden
end-abort = Partie abbrechen
end-finish = Partie jetzt beenden
end-play-on = Gegen einen Bot weiterspielen
end-cancel = Zurück
end-resign-title = Diese Partie aufgeben?
end-resign-confirm = Aufgeben
end-resign-text = Du scheidest aus und kannst nicht mehr gewinnen; ein Bot spielt deinen Platz bis zum Ende.
end-resign-text-rated = Du scheidest aus und wirst Letzter: Diese gewertete Partie zählt als Niederlage, und ein Bot spielt deinen Platz bis zum Ende.
end-resign-text-duel = Die Partie endet sofort, und der andere Spieler gewinnt.
end-resign-text-duel-rated = Die Partie endet sofort, und der andere Spieler gewinnt: Diese gewertete Partie zählt für dich als Niederlage.
end-leave-title = Diese Partie verlassen?
end-leave-confirm = Verlassen
end-leave-text = Ein Bot übernimmt deinen Platz und spielt ihn bis zum Ende; du kannst ihn nicht zurücknehmen.
end-leave-text-rated = Dein Platz bleibt deiner und deine Uhr läuft weiter: Läuft sie ab, verlierst du diese gewertete Partie, und die anderen können deinen Platz einem Bot geben.
end-leave-text-rated-untimed = Diese gewertete Partie hat keine Uhr: Verlassen heißt aufgeben. Du wirst Letzter, und sie zählt als Niederlage.
end-resign-text-alone = Kein anderer Mensch spielt mehr mit: Die Partie endet sofort, und die höchste Punktzahl der anderen gewinnt.
end-resign-text-alone-rated = Kein anderer Mensch spielt mehr mit: Die Partie endet sofort, die höchste Punktzahl der anderen gewinnt, und diese gewertete Partie zählt für dich als Niederlage.
end-leave-text-ends = Die Partie endet sofort mit dem aktuellen Punktestand.
end-abort-title = Diese Partie abbrechen?
end-abort-confirm = Partie abbrechen
end-abort-text = Die Partie endet sofort, ungespielt: Niemand bekommt ein Ergebnis.
end-abort-text-rated = Die Partie endet sofort, ungespielt: kein Ergebnis, und keine Wertung ändert sich.
end-finish-title = Partie jetzt beenden?
end-finish-confirm = Partie beenden
end-finish-text = Die Partie endet mit dem aktuellen Punktestand; die höchste Punktzahl gewinnt. Diese ungewertete Partie ändert keine Wertungen.
end-flag-title = Die Zeit von { $name } ist abgelaufen
end-flag-text = { $name } hat keine Zeit mehr. Die Partie jetzt mit dem aktuellen Punktestand beenden oder mit einem Bot auf diesem Platz weiterspielen?
end-log-resigned = { $name } hat aufgegeben
end-log-left = { $name } hat die Partie verlassen
end-log-aborted = { $name } hat die Partie abgebrochen
end-log-ended = Die Partie endete beim damaligen Stand, als { $name } ausschied
end-log-ended-flag = { $by } hat die Partie beendet, als die Zeit von { $name } abgelaufen war
end-aborted-why = Ein Spieler hat die Partie abgebrochen, bevor alle gezogen hatten: Sie endet ungespielt und zählt für niemanden.
banner-aborted-by = { $name } hat die Partie abgebrochen: kein Ergebnis, keine Wertung.

## Blockieren und Melden (moderation.js)
mod-block = Blockieren
mod-unblock = Nicht mehr blockieren
mod-block-name = { $name } blockieren
mod-unblock-name = { $name } nicht mehr blockieren
mod-report = Melden
mod-report-name = { $name } melden
mod-report-line = Diese Nachricht von { $name } melden
mod-blocked = Du hast { $name } blockiert: Du siehst keine Nachrichten mehr von dieser Person und wirst nicht mehr mit ihr gepaart oder an einen Tisch gesetzt.
mod-unblocked = Du hast { $name } nicht mehr blockiert.
mod-report-title = { $name } melden
mod-reason = Warum?
mod-reason-offensive_name = Anstößiger Name
mod-reason-abusive_chat = Beleidigungen im Chat
mod-reason-cheating = Betrug
mod-reason-other = Etwas anderes
mod-note = Noch etwas hinzuzufügen? (freiwillig)
mod-report-help = Der Betreiber des Servers liest die Meldungen und kann ein Konto stummschalten, umbenennen oder schließen. Er sieht deinen Namen.
mod-report-send = Meldung senden
mod-cancel = Abbrechen
mod-reported = Danke: Deine Meldung ist beim Betreiber des Servers angekommen.
mod-blocks-title = Blockierte Spieler
mod-blocks-text = Du siehst ihre Chatnachrichten nicht und wirst nie mit ihnen gepaart oder an einen Tisch gesetzt.
mod-blocks-none = Du blockierst niemanden.

## The operator's page (admin.js)
admin-title = Meldungen
admin-page-title = Meldungen — Carcassonne
admin-about = Meldungen der Spieler zu Namen und Chatnachrichten, die neuesten zuerst. Schalte das gemeldete Konto stumm, benenne es um oder schließe es, und erledige dann die Meldung.
admin-link-text = Du betreibst diesen Server: Lies die Meldungen der Spieler und kümmere dich darum.
admin-open = Meldungen öffnen
admin-show-all = Auch erledigte Meldungen zeigen
admin-loading = Meldungen werden geladen …
admin-none = Keine offenen Meldungen.
admin-none-all = Keine Meldungen.
admin-what-name = Name: { $name }
admin-what-chat = Chatnachricht von { $name }
admin-whom-guest = { $name } (nicht angemeldet)
admin-whom-deleted = { $name } (Konto gelöscht)
admin-whom-renamed = { $name } (jetzt { $now })
admin-reason = Grund
admin-reporter = Gemeldet von
admin-reporter-guest = einem Gast mit einem Platz im Spiel
admin-when = Wann
admin-against = Offene Meldungen gegen dieses Konto
admin-game = Spiel
admin-state = Konto
admin-state-muted = stumm bis { $until }
admin-state-closed = geschlossen am { $when }
admin-resolved-at = Erledigt
admin-note = Anmerkung:
admin-mute-for = Stumm für
admin-hours = { $n ->
        [one] { $n } Stunde
       *[other] { $n } Stunden
    }
admin-days = { $n ->
        [one] { $n } Tag
       *[other] { $n } Tage
    }
admin-unmute = nicht mehr (Stummschaltung aufheben)
admin-mute = Stummschalten
admin-new-name = Neuer Name
admin-rename = Umbenennen
admin-close = Konto schließen
admin-close-confirm = Das Konto von { $name } schließen? Es wird überall abgemeldet und kann sich nicht mehr anmelden oder chatten; seine Spiele und Wertungen bleiben. Das lässt sich nicht rückgängig machen: Weder diese Seite noch carcassonne admin öffnet ein Konto wieder.
admin-resolve = Erledigt
admin-muted = { $name } darf bis { $until } nicht chatten.
admin-unmuted = { $name } darf wieder chatten.
admin-renamed = { $was } heißt jetzt { $name }.
admin-closed = Das Konto von { $name } ist geschlossen und überall abgemeldet.
admin-closed-already = Das Konto von { $name } war schon geschlossen.
admin-resolved = Meldung { $id } ist erledigt.
error-muted = Du darfst gerade nicht chatten: Der Betreiber des Servers hat dich stummgeschaltet.
error-account_closed = Dieses Konto wurde vom Betreiber des Servers geschlossen.
error-blocked = Du kannst dich nicht an diesen Tisch setzen.
error-cannot_block_self = Du kannst dich nicht selbst blockieren.
error-too_many_blocks = Du blockierst schon so viele Spieler wie möglich: Gib zuerst einen frei.
error-not_a_member = Der Verfasser dieser Nachricht war nicht angemeldet: Melde sie stattdessen.
error-cannot_report_self = Du kannst dich nicht selbst melden.
error-already_reported = Das hast du schon gemeldet.
error-reports_too_fast = Zu viele Meldungen auf einmal: Warte eine Minute.
error-too_many_reports = Zu viele Meldungen warten auf den Betreiber: Versuche es später noch einmal.
# Zurücknahmen (takeback.js): In einer ungewerteten Partie bittet ein Spieler, seinen letzten Zug zurückzunehmen.
takeback-panel = Zugrücknahme
takeback-ask = Meinen Zug zurücknehmen
takeback-ask-help = Bittet die anderen, deinen letzten Zug (und die danach gespielten Züge) zurückzunehmen.
takeback-waiting = Du hast { $names } gebeten, deinen Zug zurückzunehmen …
takeback-asks = { $name } möchte den eigenen Zug zurücknehmen (Zug { $n }).
takeback-asks-many = { $name } möchte den eigenen Zug (Zug { $n }) und die { $count } Züge danach zurücknehmen.
takeback-asks-others = { $name } möchte den eigenen Zug zurücknehmen; es fehlt die Antwort von { $names }.
takeback-accept = Annehmen
takeback-decline = Ablehnen
takeback-granted = Zurücknahme angenommen: Zug { $n } wurde zurückgenommen.
takeback-granted-yours = Zurücknahme angenommen: Dein Zug ist zurückgenommen. Du bist am Zug.
takeback-declined = { $name } hat die Zurücknahme abgelehnt.
takeback-lapsed = Die Bitte um Zurücknahme ist verfallen: Niemand hat vor dem nächsten Zug oder rechtzeitig geantwortet.
error-not_in_rated = In einer gewerteten Partie können keine Züge zurückgenommen werden.
error-nothing_to_take_back = Du hast noch keinen Zug gespielt, den du zurücknehmen könntest.
error-takeback_pending = Um eine Zurücknahme wurde schon gebeten: Warte auf die Antwort.
error-takeback_declined = Die Zurücknahme dieses Zuges wurde abgelehnt: Du kannst nicht erneut darum bitten.
error-no_takeback_asked = Keine Zurücknahme wartet auf deine Antwort.

# Big Box: rules page and lessons

rules-examples-failed = Die Beispiele konnten nicht geladen werden (Status { $status }).
rules-bb-title = Die Big Box, Teil für Teil
rules-bb-intro = Diese Regeln spielen Erweiterungen der Big Box. Jeder Teil unten hat ein kleines Beispiel mit Spielfeld, das zuletzt gelegte Plättchen umrandet, und seine Punkte ausgerechnet.
rules-bb-switches = Teile an und aus
rules-bb-on = an
rules-bb-off = in diesen Regeln aus
rules-ex-inn-title = Ein Gasthaus an einer Straße
rules-ex-inn = Anns Wegelagerer steht auf einer Straße aus 4 Plättchen mit einem Gasthaus daran. Ann schließt sie ab: Eine fertige Straße mit Gasthaus bringt 2 Punkte je Plättchen, 4 × 2 = 8 Punkte (ohne Gasthaus: 4). Wäre sie am Ende noch offen, brächte sie nichts. Endstand: Ann 8, Ben 0.
rules-ex-cathedral-title = Eine Kathedrale in einer Stadt
rules-ex-cathedral = Anns Ritter hält eine Stadt aus 5 Plättchen mit einer Kathedrale und ohne Wappen. Fertig bringt sie 3 Punkte je Plättchen und je Wappen: 5 × 3 = 15 Punkte. Endstand: Ann 15, Ben 0.
rules-ex-cathedral-open-title = Eine unfertige Stadt mit Kathedrale am Ende
rules-ex-cathedral-open = Dieselbe Stadt, noch offen, als das Spiel endet: Eine unfertige Stadt mit Kathedrale bringt nichts, Anns Ritter bekommt 0 Punkte (ohne Kathedrale hätten die 4 Plättchen 4 gebracht). Endstand: Ann 0, Ben 0.
rules-ex-big-follower-title = Der große Gefolgsmann
rules-ex-big-follower = Anns großer Gefolgsmann (größer gezeichnet) und Bens Ritter stehen in zwei Teilen einer Stadt; Anns letztes Plättchen verbindet und schließt sie: 4 Plättchen und 2 Wappen. Der große Gefolgsmann zählt wie zwei Ritter, also hat Ann die Mehrheit, 2 zu 1, und bekommt allein 2 × (4 + 2) = 12 Punkte. Mehr Punkte als ein Ritter bringt er nicht. Endstand: Ann 12, Ben 0.
rules-ex-goods-title = Waren und die Mehrheit jeder Sorte am Ende
rules-ex-goods = Ben schließt Anns Stadt aus 3 Plättchen mit einem Weinsymbol: Anns Ritter bekommt 3 × 2 = 6 Punkte, und Ben, der das letzte Plättchen gelegt hat, nimmt das Weinplättchen. Am Ende bekommt, wer von einer Sorte die meisten Marker hat, 10 Punkte dafür: Ben hat 1 Wein, Ann keinen, also bekommt Ben 10. Endstand: Ann 6, Ben 10.
rules-ex-builder-title = Der Doppelzug des Baumeisters
rules-ex-builder = Anns Wegelagerer und ihr Baumeister stehen auf der Straße. Ann verlängert diese Straße, also legt sie sofort ein zweites Plättchen (umrandet): Es schließt die Straße aus 6 Plättchen, 6 Punkte, und Wegelagerer und Baumeister kommen zurück. Ein zweites Plättchen bringt nie ein drittes. Endstand: Ann 6, Ben 0.
rules-ex-pig-title = Das Schwein auf einer Wiese
rules-ex-pig = Anns Bauer, ihr Schwein und Bens Bauer teilen sich eine Wiese an einer fertigen Stadt. Ein Schwein ist kein Bauer: je 1 Bauer, beide haben die Mehrheit. Ben bekommt 3 Punkte für die Stadt; Ann, deren eigenes Schwein auf der Wiese steht, bekommt 4. Endstand: Ann 4, Ben 3.
rules-ex-farm-rule = Dieses Beispiel wertet die Wiese wie die Standardregeln (jede Wiese zahlt ihrer Mehrheit); diese Regeln werten Wiesen auf ihre eigene Art (siehe Wiesen oben), und das Schwein bringt seinem Besitzer 1 Punkt mehr für jede Stadt, die ihm zahlt.
learn-step-of = Schritt { $n } von { $total }
learn-next-step = Nächster Schritt
learn-goods-taken = Warenmarker der fertigen Stadt
learn-what-goods = die meisten Waren einer Sorte
lesson-inns-cathedrals-title = Wirtshäuser & Kathedralen: Gasthäuser und der große Gefolgsmann
lesson-inns-cathedrals-intro = Wirtshäuser & Kathedralen bringt Gasthäuser, Kathedralen und für jeden einen großen Gefolgsmann. Dein Wegelagerer steht auf der Straße, die vom Kloster westlich des Starts bis zu Beas Plättchen mit Gasthaus führt.
lesson-inns-cathedrals-goal = Schließ die Straße mit dem Klosterplättchen östlich des Gasthauses ab: 4 Plättchen mit Gasthaus bringen je 2, also 8 Punkte.
lesson-inns-cathedrals-done = 8 Punkte statt 4: Das Gasthaus hat deine Straße verdoppelt. Wäre sie am Ende noch offen, brächte sie nichts.
lesson-inns-cathedrals-2-intro = Bea hat ihren Ritter in die Stadt über dem Start gesetzt. Dein großer Gefolgsmann zählt bei jeder Mehrheit wie zwei.
lesson-inns-cathedrals-2-goal = Leg das Stadtplättchen über dein Kloster am Ostende der Straße, die Stadt nach Westen, und setz deinen großen Gefolgsmann hinein.
lesson-inns-cathedrals-2-done = Dein großer Gefolgsmann steht in einer eigenen Stadt, neben Beas.
lesson-inns-cathedrals-3-intro = Ein Plättchen kann die beiden Städte verbinden. Dann stehen dein großer Gefolgsmann und Beas Ritter in derselben Stadt.
lesson-inns-cathedrals-3-goal = Verbinde und schließ die beiden Städte mit dem Stadtplättchen dazwischen: Dein großer Gefolgsmann schlägt Beas Ritter 2 zu 1, also bekommst du allein 4 Plättchen und ein Wappen, 10 Punkte.
lesson-inns-cathedrals-3-done = 10 Punkte für dich, keine für Bea: Der große Gefolgsmann hat die Mehrheit gewonnen.
lesson-traders-builders-title = Händler & Baumeister: Waren und der Baumeister
lesson-traders-builders-intro = Händler & Baumeister bringt Waren und für jeden einen Baumeister und ein Schwein. Wer eine Stadt fertigstellt, nimmt für jedes Symbol darin einen Warenmarker, egal wem die Stadt gehört. Beas Ritter hält die Weinstadt über dem Start.
lesson-traders-builders-goal = Stell Beas Weinstadt mit dem Stadtplättchen östlich davon fertig: Bea bekommt 6 Punkte, und du nimmst den Weinmarker.
lesson-traders-builders-done = Bea hat 6 Punkte, aber der Wein gehört dir. Am Ende bringen die meisten Marker jeder Sorte 10 Punkte.
lesson-traders-builders-2-intro = Dein Wegelagerer steht auf der Straße östlich vom Start. Ein Baumeister darf auf eine Straße oder Stadt, in der einer deiner Gefolgsleute steht.
lesson-traders-builders-2-goal = Verlängere deine Straße um ein Plättchen nach Osten und setz deinen Baumeister darauf.
lesson-traders-builders-2-done = Dein Baumeister steht auf der Straße deines Wegelagerers.
lesson-traders-builders-3-intro = Immer wenn du die Straße oder Stadt deines Baumeisters verlängerst, legst du sofort ein zweites Plättchen.
lesson-traders-builders-3-goal = Verlängere die Straße noch einmal nach Osten, dann bist du gleich noch einmal dran.
lesson-traders-builders-3-done = Ein Doppelzug: Du legst jetzt ein zweites Plättchen.
lesson-traders-builders-4-intro = Das ist das Extraplättchen deines Baumeisters. Es ist das letzte Plättchen des Spiels.
lesson-traders-builders-4-goal = Schließ die Straße mit dem Klosterplättchen ab: 6 Plättchen, 6 Punkte. Dann endet das Spiel, und dein Weinmarker ist der meiste Wein: 10 Punkte dazu.
lesson-traders-builders-4-done = 6 Punkte für die Straße und 10 für den Wein: Waren und Baumeister haben sich beide gelohnt.

# Big Box: ratings and lobby
rating-family-base = Grundspiel
rating-family-big-box = Big Box
rating-pool-duel = Grundspiel, zwei Spieler
rating-pool-multi = Grundspiel, drei bis sechs Spieler
rating-pool-big-box-duel = Big Box, zwei Spieler
rating-pool-big-box-multi = Big Box, drei bis sechs Spieler
profile-pool-big-box-duel = Big Box, zwei Spieler (Glicko-2)
profile-pool-big-box-multi = Big Box, drei bis sechs Spieler (Weng-Lin)
profile-game-pool = gewertet: { $pool }
leaderboard-family = Regelwerk
leaderboard-family-about = Jedes Regelwerk hat eigene Wertungen: das Grundspiel (Standard-, Einsteiger- und Erstausgabe-Regeln) und die Big Box.
lobby-preset-big-box = Big Box
lobby-pn-rules = Regeln
lobby-pn-rules-base = Standard
lobby-pn-rules-big-box = Big Box
lobby-table-rules = Regeln: { $preset }
results-ratings-pool = Wertungsgruppe: { $pool }

# Big Box: game page (game.js, panels.js): the big follower, the builder, the pig, goods.
preset-big-box-title = Die große Box
kind-goods = Waren
role-big = großer Gefolgsmann ({ $role })
figure-big = großer Gefolgsmann
figure-builder = Baumeister
figure-pig = Schwein
figure-home = { $figure } im Vorrat
figure-away = { $figure } auf dem Spielfeld
goods-held = Waren: { $wine } Wein, { $wheat } Getreide, { $cloth } Stoff
goods-count = { $n } { $good ->
        [wine] Wein
        [wheat] Getreide
       *[cloth] Stoff
    }
scored-with-inn = mit Wirtshaus
scored-with-cathedral = mit Kathedrale
scored-with-pig = { $n ->
        [one] { $n } Stadt mit Schwein
       *[other] { $n } Städte mit Schwein
    }
scored-goods-taken = Waren erhalten: { $goods }
scored-goods-final = am meisten { $good ->
        [wine] Wein
        [wheat] Getreide
       *[cloth] Stoff
    } ({ $n })
builder-bonus = Baumeister: { $name } legt eine zweite Karte
builder-bonus-you = Baumeister: Du legst eine zweite Karte
spot-picker-figures = Figur und Platz
results-goods = Mehrheiten bei den Waren
results-goods-won = { $good ->
        [wine] Wein
        [wheat] Getreide
       *[cloth] Stoff
    }: { $names } +{ $points } ({ $count })
results-goods-none = { $good ->
        [wine] Wein
        [wheat] Getreide
       *[cloth] Stoff
    }: niemand hat welche
rules-expansions = Mit { $list }.
expansion-inns_cathedrals = Wirtshäuser & Kathedralen
expansion-traders_builders = Händler & Baumeister
