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
