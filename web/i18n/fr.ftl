# Les mots de l'interface en français (les mêmes clés que en.ftl).

## La page

app-title = Carcassonne
app-description = Carcassonne, le jeu de pose de tuiles : jouez sur le même appareil, contre des bots ou en ligne avec vos amis.
nav-label = Menu principal
nav-new-game = Nouvelle partie
nav-games = Parties
nav-learn = Apprendre
nav-sign-in = Se connecter
loading-tiles = Chargement des tuiles…
lang-select-label = Langue
boot-unreachable = Le serveur du jeu est injoignable
replay-of-game = Rejouer la partie { $id }
replay-file-refused = Cet enregistrement ne peut pas être rejoué : { $reason }
toasts-label = Messages
link-copied = Lien copié
copy-by-hand = Sélectionnez le lien et copiez-le
just-now = à l’instant
minutes-ago = il y a { $n } min
hours-ago = il y a { $n } h
something-wrong = un problème est survenu

## Erreurs, selon les codes stables du serveur

error-unknown = Un problème est survenu.
error-network = Le serveur est injoignable.
error-not_found = Introuvable.
error-bad_request = La requête est mal formée.
error-unauthorized = Ce lien ne vous donne pas de place dans cette partie.
error-not_your_turn = Ce n’est pas votre tour.
error-stale_version = La partie a avancé : rechargez-la.
error-game_over = La partie est terminée.
error-not_finished = L’analyse ne porte que sur une partie terminée : celle-ci est en cours.
error-illegal_move = Les règles n’autorisent pas ce coup.
error-too_large = La requête est trop grande.
error-rate_limited = Trop de requêtes : patientez un instant puis réessayez.
error-hidden_information = L’enregistrement d’une partie aux mains cachées est disponible une fois la partie terminée.
error-storage_error = La partie n’a pas pu être enregistrée ; rien n’a changé.
error-unsupported_media_type = Envoyez du JSON avec l’en-tête content-type: application/json.
error-forbidden_origin = Ce serveur n’accepte pas de connexions depuis les pages de ce site.
error-too_many_connections = Plus de place pour une autre connexion : réessayez plus tard.
error-quota_exceeded = Ce serveur n’accepte plus de nouvelles parties de votre part pour l’instant.
error-later_rules_code = Ces règles viennent d’une version du jeu plus récente que celle de ce serveur : demandez à qui les a partagées quelle version il utilise.
error-bad_rules_code = Ce lien ne contient pas de règles que ce serveur sait lire.
error-busy = Le serveur est occupé : réessayez dans un instant.
error-too_many_tokens = La requête nomme trop de jetons de place.
error-name_taken = Ce nom est pris (ou un nom qui lui ressemble) : choisissez-en un autre.
error-bad_credentials = Nom ou mot de passe incorrect.
error-not_signed_in = Connectez-vous d’abord.
error-too_many_attempts = Trop de tentatives : réessayez plus tard.

## Options de règles (RULE_OPTIONS du moteur : chaque clé est sa `key`)

rule-value-on = oui
rule-value-off = non
rule-value-no-limit = sans limite
rule-farms = Décompte des prés
    .about = Comment les paysans marquent à la fin de la partie.
rule-farms-per-farm = 3 par ville, pour chaque pré
rule-farms-per-farm-once = 3 par ville, une fois par joueur
rule-farms-per-city = 4 par ville, majorité sur tous ses prés
rule-farms-off = pas de paysans
rule-small_city = Petites villes : une ville achevée de 2 tuiles rapporte 2
    .about = Une ville achevée de deux tuiles rapporte 1 point par tuile et blason au lieu de 2.
rule-river = La Rivière : la partie commence avec les 12 tuiles rivière
    .about = Les 12 tuiles rivière remplacent la tuile de départ et sont posées en premier.
rule-abbot = L’Abbé : un abbé par joueur, les jardins rapportent
    .about = Chaque joueur reçoit un abbé pour les abbayes et les jardins, qu’il peut reprendre.
rule-hand = Tuiles en main (1 = la pioche habituelle d’une tuile)
    .about = Combien de tuiles chaque joueur tient en main et parmi lesquelles il choisit.
rule-hand_visible = Les mains sont visibles de tous
    .about = Les tuiles en main sont montrées à tous les joueurs, pas seulement à leur propriétaire.
rule-draw_at_turn_end = Piocher sa tuile suivante à la fin de son tour
    .about = Vous piochez votre tuile suivante à la fin de votre tour et la voyez pendant que les autres jouent.
rule-unplaceable = Une tuile qui ne se place nulle part
    .about = Ce que devient une tuile piochée qui ne se place nulle part.
rule-unplaceable-discard = est défaussée
rule-unplaceable-reshuffle = retourne dans le sac
rule-hole_bonus_turn = Combler un trou (quatre voisines) donne un tour de plus
    .about = Une tuile posée avec des voisines sur ses quatre côtés donne un tour de plus.
rule-incomplete_scoring = Les zones inachevées comptent à la fin
    .about = Si les routes, villes, abbayes et jardins inachevés rapportent à la fin.
rule-board_limit = Taille de la table
    .about = Chaque tuile doit tenir dans un rectangle L × H centré sur la tuile de départ.
rule-border_completes = Le bord de la table ferme routes et villes (avec une taille de table)
    .about = Avec une taille de table : les routes et villes qui touchent le bord de la table y sont fermées.
rule-first_player = Premier joueur
    .about = Qui commence : la première place, ou un joueur tiré au sort.
rule-first_player-seat0 = la première place
rule-first_player-random = tiré au sort
rule-inns_cathedrals = Auberges et Cathédrales : auberges, cathédrales et un grand partisan chacun
    .about = Ajoute les 18 tuiles d’Auberges et Cathédrales : une auberge double une route achevée, une cathédrale triple une ville achevée, et chaque joueur a un grand partisan.
rule-traders_builders = Marchands et Bâtisseurs : marchandises, un bâtisseur et un cochon chacun
    .about = Ajoute les 24 tuiles de Marchands et Bâtisseurs : achever une ville à marchandises en rapporte les jetons, et chaque joueur a un bâtisseur et un cochon.
rule-big_follower = Grands partisans (Auberges et Cathédrales)
    .about = Le grand partisan de chaque joueur compte pour deux partisans dans toute majorité.
rule-inns = Auberges (Auberges et Cathédrales)
    .about = Une route achevée avec une auberge rapporte 2 par tuile ; inachevée, rien.
rule-cathedrals = Cathédrales (Auberges et Cathédrales)
    .about = Une ville achevée avec une cathédrale rapporte 3 par tuile et blason ; inachevée, rien.
rule-builder = Bâtisseurs (Marchands et Bâtisseurs)
    .about = Un bâtisseur près de votre partisan vous donne une seconde tuile chaque fois que vous prolongez sa route ou sa ville.
rule-pig = Cochons (Marchands et Bâtisseurs)
    .about = Un cochon près de votre paysan fait rapporter 1 de plus à chaque ville achevée par ce pré.
rule-goods = Marchandises (Marchands et Bâtisseurs)
    .about = Achever une ville en rapporte les jetons de marchandises ; le plus de chaque sorte marque 10 à la fin.

## Shared words

loading = Chargement…
cancel = Annuler
close = Fermer
color-yellow = jaune
color-red = rouge
color-green = vert
color-blue = bleu
color-black = noir
color-pink = rose
bot-level-random = au hasard
    .about = des coups légaux au hasard
bot-level-easy = facile
    .about = une recherche rapide (300 simulations par coup)
bot-level-normal = normal
    .about = une vraie recherche (3 000 simulations par coup)
bot-level-hard = difficile
    .about = une seconde de recherche par coup

## Home and new game

seat-you = Vous
home-rules-prefilled = Le formulaire contient ces règles : choisissez les joueurs et lancez la partie
home-rules-unreadable = Ces règles sont illisibles : { $reason }
home-tagline = Posez des tuiles, bâtissez villes, routes et abbayes, et placez vos partisans pour marquer des points.
home-new-game = Nouvelle partie
home-add-player = + Ajouter un joueur
home-rules = Règles
home-share-rules = Partager ces règles
home-public = Afficher cette partie pour que tout le monde puisse la regarder
home-start = Lancer la partie
home-your-games = Vos parties
home-public-games = Parties à regarder
home-open-record = Ouvrir un enregistrement…
home-saved-rules = Règles enregistrées
home-options = Options
home-saved-none = Les règles maison de votre table, gardées ici : composez-les dans le formulaire, puis « Partager ces règles » et enregistrez-les.
home-saved-start = Lancer une partie
home-saved-rename = Renommer
home-saved-delete = Supprimer
home-saved-delete-named = Supprimer { $name }
home-saved-delete-confirm = Supprimer les règles enregistrées « { $name } » ?
home-saved-new-name = Nouveau nom pour { $name }
home-no-games = Pas encore de partie : lancez-en une !
seat-player = Joueur { $n }
seat-name-label = Nom du joueur { $n }
seat-person = Humain
seat-bot = Bot
seat-bot-name = nom du bot (facultatif)
seat-friend-name = nom de l’ami
seat-bot-level = Niveau du bot
seat-where = Où joue le joueur { $n }
seat-where-help = Ici : sur cet écran (chacun son tour). Inviter : un ami joue sur son propre appareil grâce à un lien.
seat-here = Ici (cet écran)
seat-invite = Inviter un ami (lien)
seat-remove = Retirer
game-row-bot = bot
game-row-aborted = annulée : personne n’a joué
game-row-finished = terminée · { $turns } tours
game-row-turn = tour { $n }
game-row-to-play = à { $name } de jouer
game-row-replay = Revoir
game-row-download = Télécharger l’enregistrement
game-row-view = Voir
game-row-continue = Continuer
game-row-watch = Regarder
how-title = Comment jouer
how-place = Posez la tuile.
how-place-fits = Les cases en surbrillance montrent où elle s’insère ;
how-place-kbd = appuyez sur R (ou cliquez sur la tuile) pour la tourner
how-place-touch = touchez votre tuile pour la tourner
how-place-edges = Les bords doivent correspondre : ville contre ville, route contre route, pré contre pré.
how-deploy = Placez un partisan
how-deploy-or-not = — ou pas.
how-deploy-kbd = Cliquez sur un cercle de la nouvelle tuile
how-deploy-touch = Touchez un cercle de la nouvelle tuile, ou choisissez un emplacement dessous
how-deploy-where = un chevalier dans une ville, un voleur sur une route, un moine dans une abbaye, un paysan couché dans un pré. La zone doit être libre.
how-confirm = Validez
how-confirm-kbd = avec Entrée ; Échap annule votre choix
how-confirm-touch = ; Annuler reprend votre choix
how-confirm-scores = Les routes, villes et abbayes achevées rapportent aussitôt et vos partisans reviennent.
how-keyboard = Au clavier :
how-keyboard-keys = les flèches déplacent votre tuile entre les cases où elle s’insère, R et Maj+R la tournent, F (ou 1–9) choisit l’emplacement d’un partisan.
how-end = À la fin, les zones inachevées rapportent moins, et les paysans marquent les villes achevées qui bordent leurs prés.

## Rules page and presets

rules-loading = Chargement des règles…
rules-unreadable = Ces règles sont illisibles
rules-unreadable-hint = Vérifiez que le lien a été copié en entier, ou redemandez-le.
back-to-start = Retour à l’accueil
rules-none-changed = Aucune : les règles « { $preset } » telles quelles.
rules-page-title = Les règles : { $preset }{ $n ->
        [0] {""}
        [one] {" "}+ { $n } option
       *[other] {" "}+ { $n } options
    }
rules-cli = Pour la ligne de commande (carcassonne play --rules …) :
rules-start = Lancer une partie avec ces règles
rules-share-or-save = Partager ou enregistrer
rules-in-force = Règles maison et options en vigueur
rules-share = Partager ces règles
rules-share-hint = Vos amis ouvrent le lien ou scannent le code pour les lire à table.
rules-qr-alt = QR code du lien vers ces règles
rules-qr-none = Pas de QR code : copiez plutôt le lien
rules-link = Lien
copy-link = Copier le lien
rules-save-as = Les enregistrer sur ce serveur sous le nom
rules-default-name = Les règles de notre table
save = Enregistrer
rules-every-option = Toutes les options et leur effet
rules-saved = Enregistrées sous « { $name } » : retrouvez-les sur l’accueil
rules-section-setup = Mise en place
rules-section-a-turn = Un tour de jeu
rules-section-roads = Routes
rules-section-cities = Villes
rules-section-cloisters = Abbayes
rules-section-farms = Prés
rules-section-end-of-the-game = Fin de la partie
preset-standard = standard
preset-beginner = débutant
preset-first-edition = première édition
preset-big-box = Big Box
preset-standard-title = Les règles actuelles
preset-beginner-title = Une première partie en douceur
preset-first-edition-title = Les règles de 2000
headline-farms-per-farm = les paysans marquent 3 par ville achevée
headline-farms-per-farm-once = les paysans marquent 3 par ville achevée, chaque ville une fois par joueur
headline-farms-per-city = les paysans marquent 4 par ville achevée, pour le plus de paysans sur tous ses prés
headline-farms-off = pas de paysans
rules-title = Règles : { $preset }{ $n ->
        [0] {""}
        [one] {" "}+ { $n } option
       *[other] {" "}+ { $n } options
    }
headline = { $title }{ $changed ->
        [yes] , avec règles maison
       *[no] {""}
    } : { $farms }{ $small ->
        [yes] ; les petites villes rapportent 2
       *[no] {""}
    }.

## Colours (theme switch)

theme-system = comme le système
theme-light = clair
theme-dark = sombre
theme-word-system = auto
theme-word-light = clair
theme-word-dark = sombre
theme-title = Couleurs : { $now } (cliquez pour { $next })
theme-label = couleurs { $word } ({ $now }) : passer à { $next }

## Accounts

account-sign-out = Se déconnecter
account-create-title = Créer un compte
account-why = Un compte vous réserve votre nom. Vous pouvez aussi jouer sans, en invité.
account-none = Pas de compte ?
account-create-one = Créez-en un
account-or-guest = , ou jouez en invité.
account-name = Nom
account-password = Mot de passe
account-password-min = Au moins 8 caractères.
account-create = Créer le compte
account-have-one = Déjà un compte ?
account-welcome = Bienvenue, { $name }
account-recovery = Votre code de récupération permet de choisir un nouveau mot de passe si vous oubliez le vôtre. Il n’est affiché qu’une fois : notez-le ou gardez-le dans votre gestionnaire de mots de passe.
done = Terminé

## The game screen

game-board-help = À votre tour : les flèches déplacent votre tuile entre les cases où elle s’insère, R et Maj+R la tournent, F et Maj+F parcourent les emplacements d’un partisan, Entrée la pose, Échap annule ; H demande un conseil (contre des bots ou sur un seul écran).
game-watching = Spectateur
game-watching-help = Vous n’avez pas de place dans cette partie : vous voyez chaque coup dès qu’il est joué
game-drawer = Menu : journal, tuiles restantes, liens et fin de partie
game-players = Joueurs
game-your-move = Votre coup
game-menu-title = Menu
game-back-to-board = Retour au plateau
game-log = Journal de la partie
setting-confirm-moves = Valider chaque coup
setting-confirm-moves-help = Activé, un coup n’est joué que par « Valider » ; désactivé, choisir l’emplacement d’un partisan (ou « Aucun ») le joue aussitôt. Cet appareil s’en souvient.
game-sound-on = Un son quand c’est votre tour : activé (cliquez pour le couper)
game-sound-off = Un son quand c’est votre tour : coupé (cliquez pour l’activer)
invite-qr-larger = Agrandir le QR code
invite-qr-alt = QR code : { $label }
invite-title = Invitez vos amis
invite-links = Liens d’invitation
invite-help = Envoyez à chaque ami son propre lien ou faites-le-lui scanner : qui l’ouvre joue à cette place.
invite-seat = place { $n }
invite-not-joined = pas encore arrivé
invite-here = est là
invite-left = parti (le lien marche toujours)
invite-anyone = Tout le monde
invite-can-watch = peut regarder
invite-local = Les liens en { $host } ne s’ouvrent que sur cet ordinateur : lancez le serveur sur le réseau et ouvrez cette page à l’adresse réseau de l’ordinateur, par exemple avec
invite-scan-to-play = { $name } : scannez pour jouer
invite-scan-to-watch = Scannez pour regarder la partie
invite-waiting-for = en attente de { $names }
invite-names-left = { $names } parti (le lien marche toujours)
invite-everyone-here = tout le monde est là
qr-code = QR code
game-no-seat = Ce lien ne donne (plus) de place dans cette partie : vous regardez.
game-not-found = Partie introuvable
game-not-found-text = La partie { $id } n’est pas sur ce serveur.
game-start-new = Lancer une nouvelle partie
game-too-fast = Trop rapide : patientez un instant puis réessayez
game-illegal = Ce coup n’est pas permis : { $reason }
title-your-turn = ● À vous — Carcassonne
title-game-over = Partie terminée — Carcassonne
title-watching = Spectateur — Carcassonne
banner-you-win = Partie terminée — vous avez gagné !
banner-aborted = Partie annulée : une pendule est tombée avant que quiconque ait joué.
banner-game-over = Partie terminée — { $winners } !
banner-see-results = Voir les résultats
banner-placing = Pose en cours…
banner-named-turn = { $name }, à vous
banner-your-turn = À vous
banner-tap-cell = { $who } : touchez une case éclairée
banner-place = { $who } : posez la tuile — { $r } la tourne
banner-pick-spot-touch = { $who } : choisissez un emplacement, ou touchez à nouveau la tuile pour la poser
banner-pick-spot = { $who } : choisissez un emplacement pour un partisan, ou validez avec { $enter }
banner-lay-touch = { $who } : touchez à nouveau la tuile ou Valider pour la poser
banner-lay = { $who } : validez avec { $enter }
key-enter = Entrée
key-esc = Échap
banner-thinking = { $name } réfléchit
banner-waiting-join = En attente de l’arrivée de { $name }
banner-waiting-offline = En attente de { $name } (hors ligne)
banner-waiting = En attente de { $name }
game-aborted = Partie annulée
game-aborted-why = Une pendule est tombée avant que quiconque ait joué : la partie s’arrête sans avoir été jouée et ne compte pour personne.
game-over = Partie terminée
game-all-placed = Toutes les tuiles sont posées.
game-ended-early = La partie s’est arrêtée avant la dernière tuile : les scores d’alors comptent.
results = Résultats
info-no-follower-left = Il ne vous reste aucun partisan pour cette tuile : validez pour la poser.
info-no-follower-fits = Aucun partisan ne peut aller sur cette tuile.
info-off-view = { $n } de plus au bord ou hors de l’écran : faites glisser le plateau, ou ⤢ montre tout.
info-no-fit = Ne s’insère pas ainsi
info-tap-turn = Touchez la tuile pour la tourner.
info-press-r = Appuyez sur { $r }.
hand-choose = Choisissez une tuile :
hand-yours = Vos tuiles :
hand-yours-many = Vos mains :
confirm = Valider
confirm-no-follower = Valider — sans partisan
confirm-recall = Valider — reprendre l’abbé
confirm-abbot = Valider — abbé
confirm-role = Valider — { $role }
role-knight = chevalier
role-thief = voleur
role-monk = moine
role-farmer = paysan
role-abbot = abbé
role-follower = partisan
role-builder = bâtisseur
role-pig = cochon
recall-abbot = Reprendre l’abbé
spot-picker = Partisan
spot-none = Aucun
tile-yours = Votre tuile
tile-of = Tuile de { $name }
tile-turn-bag = tour { $turn } · { $left } dans le sac
turn-left = Tourner à gauche
turn-right = Tourner à droite
tap-to-turn = Touchez pour tourner
click-to-turn = Cliquez pour tourner (R)
tile-yours-turn = Votre tuile, { $tile } : la tourner
tile-hidden = une tuile cachée
tile-thinking = { $name } réfléchit…
tile-to-play = C’est à { $name } de jouer.
undo = Annuler
bag-hide = Masquer les tuiles restantes
bag-show = Montrer les tuiles restantes
download-record = Télécharger l’enregistrement
all-games = Toutes les parties
you-are-watching = vous regardez
results-you-win = Vous avez gagné !
results-tie = Égalité : { $winners } !
results-winner = { $winners } !
results-final = Scores finaux
results-after = Scores finaux après { $n } tours
results-one-by-one = Le décompte final, un par un (choisissez-en un pour le voir sur le plateau)
results-chart = Les scores au fil de la partie
results-look = Regarder le plateau
results-review = Analyser la partie
results-review-help = Ce que la recherche aurait joué à la place, coup par coup
only-one-way = Une seule orientation convient ici
info-deploy = Cliquez sur un cercle ou appuyez sur F pour placer un partisan ({ $n ->
        [one] { $n } emplacement
       *[other] { $n } emplacements
    }), ou validez sans.
info-deploy-quick = Cliquez sur un cercle pour jouer avec un partisan à cet endroit ({ $n ->
        [one] { $n } emplacement
       *[other] { $n } emplacements
    }), ou validez sans.
info-deploy-touch-quick = Choisissez un emplacement ci-dessous pour jouer avec un partisan ({ $n ->
        [one] { $n } emplacement
       *[other] { $n } emplacements
    }), ou Aucun pour jouer sans.
info-deploy-touch = Choisissez un emplacement ci-dessous pour placer un partisan ({ $n ->
        [one] { $n } emplacement
       *[other] { $n } emplacements
    }), ou validez sans.
info-fits = S’insère à { $b } { $n ->
        [one] endroit
       *[other] endroits
    } ainsi.
info-fits-of = S’insère à { $b } { $n ->
        [one] endroit
       *[other] endroits
    } ainsi ({ $all } cases en tout).
info-fits-turned = tournée, elle s’insère dans { $n ->
        [one] { $n } case
       *[other] { $n } cases
    }.
bag-left = { $b } { $n ->
        [one] tuile restante
       *[other] tuiles restantes
    } dans le sac

## Players, log and results

kind-roads = Routes
kind-cities = Villes
kind-cloisters = Abbayes
kind-farms = Prés
kind-gardens = Jardins
kind-recalls = Abbé repris
score-laps = { $n }+ sur la piste de score
score-track = { $n } sur la piste
abbot-in-supply = abbé en réserve
abbot-on-board = abbé sur le plateau
tiles-in-hand = tuiles en main
tag-bot-title = joueur ordinateur
tag-you = vous
player-rating-title = Classement (partie classée)
online = en ligne
offline = hors ligne
status-thinking = réfléchit
status-to-play = à jouer
status-winner = vainqueur
supply = { $n } partisans sur { $all } en réserve
at-the-end = à la fin
scored-cloister = abbaye
scored-garden = jardin
abbot-recalled = abbé repris
show-why = Montrer pourquoi sur le plateau
final-scoring = Décompte final
log-discarded = cette tuile ne s’insérait nulle part et a été défaussée
log-reshuffled = cette tuile ne s’insérait nulle part et est retournée dans le sac
log-bonus = { $name } a comblé un trou et rejoue
log-empty = La partie commence : la tuile de départ est au milieu.
remaining-title = { $tile } : { $n } sur { $all } restantes
plus-at-the-end = { $d } + { $f } à la fin
total = Total
chart-label = Scores au fil de la partie : { $scores }
tiles-in-hand-n = { $n ->
        [one] { $n } tuile en main
       *[other] { $n } tuiles en main
    }
win-text = { $names } { $n ->
        [one] gagne
       *[other] gagnent
    }
scored-road = route de { $n ->
        [one] { $n } tuile
       *[other] { $n } tuiles
    }
scored-city = ville de { $n ->
        [one] { $n } tuile
       *[other] { $n } tuiles
    }{ $shields ->
        [0] {""}
        [one] , { $shields } blason
       *[other] , { $shields } blasons
    }
scored-farm = pré, { $n ->
        [one] { $n } ville achevée
       *[other] { $n } villes achevées
    }

## Connection

move-not-sent = Le coup n’a pas été envoyé : réessayez dans un instant
back-online = De nouveau en ligne.
offline-note = Vous êtes hors ligne. La partie se reconnecte dès le retour du réseau.
connection-lost = Connexion perdue. Reconnexion…

## Board, tiles and what screen readers hear

board = Le plateau
zoom-in = Zoom avant
zoom-out = Zoom arrière
zoom-fit = Montrer tout le plateau
# Lists of words, as the language writes them (the CLDR's list patterns): two words, and the last of three or more
# (the others are joined by a comma).
list-two = { $first } et { $last }
list-end = { $rest } et { $last }
tile-words-unknown = tuile { $id }
tile-words-fields = une tuile de pré
tile-words = une tuile avec { $list }
tile-part-cloister = une abbaye
tile-part-garden = un jardin
tile-part-river = la rivière
tile-part-inn = une auberge
tile-part-cathedral = une cathédrale
tile-part-goods = { $goods ->
        [wine] un tonneau de vin
        [wheat] une gerbe de blé
       *[cloth] un rouleau de tissu
    }
place-start = le départ
place-far = { $parts } du départ
spot-cloister = { $role } dans l’abbaye
spot-garden = { $role } dans le jardin
dir-north = au nord
dir-south = au sud
dir-east = à l’est
dir-west = à l’ouest
dir-north-east = au nord-est
dir-north-west = au nord-ouest
dir-south-east = au sud-est
dir-south-west = au sud-ouest
said-laid = { $name } a posé { $tile } { $place }
said-laid-start = { $name } a posé { $tile } au départ
said-with = , avec un { $role }
said-scored = { $names } +{ $points }, { $what }
# Goods taken with a city: no points, the words say what.
said-took = { $names }, { $what }
said-recalled = { $names } a repris l’abbé, +{ $points }
said-discarded = { $tile } ne s’insérait nulle part et a été défaussée
said-reshuffled = { $tile } ne s’insérait nulle part et est retournée dans le sac
said-bonus = { $name } a comblé un trou et rejoue
said-end = Partie terminée : { $winners }
said-other-arrow = Essayez une autre flèche.
said-no-spot = Aucun emplacement pour un partisan.
said-no-spot-here = Aucun emplacement pour un partisan ici.
said-no-follower = Aucun partisan.
said-move-first = Déplacez d’abord la tuile avec les flèches.
tile-part-city = { $n ->
        [one] une ville
       *[other] { $n } villes
    }{ $shield ->
        [yes] {" "}avec blason
       *[no] {""}
    }
tile-part-road = { $n ->
        [one] une route
       *[other] { $n } routes
    }
place-next = { $dir ->
        [east] à l’est
        [west] à l’ouest
        [south] au sud
       *[north] au nord
    } du départ
place-steps = { $n } { $dir ->
        [east] vers l’est
        [west] vers l’ouest
        [south] vers le sud
       *[north] vers le nord
    }
spot-city = { $role } dans la ville{ $where ->
        [none] {""}
       *[other] {" "}{ $where }
    }
spot-road = { $role } sur la route{ $where ->
        [none] {""}
       *[other] {" "}{ $where }
    }
spot-field = { $role } dans le pré{ $where ->
        [none] {""}
       *[other] {" "}{ $where }
    }
spot-tile = { $role } sur la tuile{ $where ->
        [none] {""}
       *[other] {" "}{ $where }
    }
said-your-turn = À vous : { $tile } ; elle s’insère dans { $n ->
        [one] { $n } case
       *[other] { $n } cases
    }.
board-label = Le plateau : { $n ->
        [one] { $n } tuile posée
       *[other] { $n } tuiles posées
    }
board-label-mine = Le plateau : { $n ->
        [one] { $n } tuile posée
       *[other] { $n } tuiles posées
    } ; votre tuile, { $tile }, s’insère dans { $cells } cases
said-no-cell = Plus de case vers { $dir ->
        [east] l’est
        [west] l’ouest
        [south] le sud
       *[north] le nord
    }.
said-placed = { $place }, tournée de { $deg }°{ $ways ->
        [0] {""}
        [1] {""}
       *[other] {" "}(s’insère de { $ways } façons)
    }.
said-spots = { $n ->
        [one] { $n } emplacement
       *[other] { $n } emplacements
    } pour un partisan : { $spots }.

## Chart

chart-axis-turn = tour

## The rules page in words (formatted by the server, crates/server/src/i18n.rs rules_summary)

rs-setup-river = La source commence la table ; les 11 autres tuiles rivière sont piochées d’abord (le lac en dernier), puis les 71 tuiles terrain.
rs-setup-start = La tuile de départ est posée face visible au milieu de la table ; les 71 autres tuiles sont mélangées face cachée.
rs-followers-abbot = Chaque joueur a 7 partisans et un abbé.
rs-followers = Chaque joueur a 7 partisans.
rs-draw-first = Chaque joueur pioche sa première tuile avant le début de la partie.
rs-table = La table fait { $w } sur { $h } tuiles, centrée sur la tuile de départ : aucune tuile ne peut être posée en dehors.
rs-first-seat = La première place commence.
rs-first-random = Le premier joueur est tiré au sort.
rs-turn-hand = Choisissez l’une de vos { $n } tuiles et posez-la contre la table, chaque bord commun correspondant : ville contre ville, route contre route, pré contre pré.
rs-turn-draw-end = Posez la tuile piochée à la fin de votre tour précédent contre la table, chaque bord commun correspondant : ville contre ville, route contre route, pré contre pré.
rs-turn-draw = Piochez une tuile et posez-la contre la table, chaque bord commun correspondant : ville contre ville, route contre route, pré contre pré.
rs-unplaceable-discard = Une tuile qui ne s’insère nulle part quitte la partie, et on en pioche une autre.
rs-unplaceable-reshuffle = Une tuile qui ne s’insère nulle part retourne dans le sac, et on en pioche une autre.
rs-follower-farmers = Vous pouvez ensuite placer un partisan sur une route, une ville, une abbaye ou un pré de cette tuile, si aucun partisan n’occupe encore toute cette zone.
rs-follower-no-farmers = Vous pouvez ensuite placer un partisan sur une route, une ville ou une abbaye de cette tuile, si aucun partisan n’occupe encore toute cette zone. Les prés ne reçoivent pas de partisans.
rs-abbot = Ou placez votre abbé sur son abbaye ou son jardin ; ou, au lieu de placer quoi que ce soit, reprenez votre abbé en marquant 1 + les tuiles qui l’entourent.
rs-complete = Les routes, villes et abbayes que votre tuile achève rapportent aussitôt, et leurs partisans reviennent.
rs-hole = Une tuile posée avec des voisines sur ses quatre côtés comble un trou et vous donne un tour de plus.
rs-draw-back = Complétez votre main à { $n } tuiles à la fin de votre tour.
rs-draw-next = Piochez votre tuile suivante à la fin de votre tour : vous la voyez pendant que les autres jouent.
rs-road-score = Elle rapporte 1 point par tuile au joueur qui y a le plus de voleurs ; en cas d’égalité, chacun marque la totalité.
rs-city-score = Elle rapporte 2 points par tuile et 2 par blason au joueur qui y a le plus de chevaliers ; en cas d’égalité, chacun marque la totalité.
rs-small-city = Petites villes : une ville achevée de 2 tuiles seulement rapporte à la place 1 par tuile et par blason.
rs-cloister = Une abbaye est achevée quand les 8 tuiles qui l’entourent sont posées : 9 points pour son moine.
rs-gardens = Les jardins rapportent comme les abbayes, mais seul un abbé peut s’y tenir.
rs-farm-what = Un pré est une étendue de champ, bordée par les routes, les villes, la rivière et le bord de la table. Les paysans y restent jusqu’à la fin.
rs-farm-end = À la fin : { $summary }
rs-no-farmers = On ne joue pas de paysans : les prés ne rapportent jamais.
rs-farms-summary-per-farm = chaque pré rapporte à la majorité de ses paysans 3 points par ville achevée qu’il borde.
rs-farms-summary-per-farm-once = 3 points par ville achevée, chaque ville ne payant chaque joueur qu’une fois au plus (règles de 2001).
rs-farms-summary-per-city = chaque ville achevée rapporte 4 points au plus grand nombre de paysans sur tous les prés qui la bordent (règles de 2000).
rs-farms-summary-off = on ne joue pas de paysans.
rs-farms-example-per-farm = Exemple : un pré borde deux villes achevées et une ville inachevée. Ada y a deux paysans, Bob un. Ada marque 2 × 3 = 6, Bob rien ; la ville inachevée ne paie personne. Si Bob tient aussi un autre pré qui borde l’une de ces villes, cette ville lui paie 3 aussi.
rs-farms-example-per-farm-once = Exemple : Ada a le plus de paysans sur deux prés, qui bordent tous deux la même ville achevée. Cette ville lui paie 3 une fois, et non 3 par pré. Une seconde ville achevée qui borde l’un des prés lui paie 3 de plus.
rs-farms-example-per-city = Exemple : une ville achevée borde deux prés. Ada a un paysan sur le premier ; Bob en a un sur chacun. Comptés sur les deux prés, Bob a 2 paysans contre 1 pour Ada : la ville paie 4 à Bob et rien à Ada. En cas d’égalité, tous deux marqueraient 4.
rs-farms-example-off = Exemple : un pré voisin de trois villes achevées ne vaut rien pour personne : on ne peut pas poser de partisans dans les prés.
rs-end-hand = La partie s’achève quand le sac et toutes les mains sont vides.
rs-end-last = La partie s’achève une fois la dernière tuile posée.
rs-incomplete-none = Les routes, villes, abbayes et jardins inachevés ne rapportent rien.
rs-farms-then = Puis les prés sont décomptés, comme ci-dessus.
rs-winner = Le plus haut total l’emporte ; les joueurs à égalité se partagent la victoire.
rs-hand = Chaque joueur pioche une main de { $n } tuiles, { $shown ->
        [yes] visible de tous
       *[no] vue de son seul propriétaire
    }.
rs-road-complete = Une route est achevée quand ses deux bouts s’arrêtent à un carrefour, une ville ou une abbaye, ou qu’elle forme une boucle{ $edge ->
        [yes] , ou qu’elle atteint le bord de la table
       *[no] {""}
    }.
rs-city-complete = Une ville est achevée quand ses remparts se referment tout autour{ $edge ->
        [yes] , ou qu’elle atteint le bord de la table
       *[no] {""}
    }.
rs-incomplete = Les routes inachevées rapportent alors 1 par tuile, les villes inachevées 1 par tuile et par blason, les abbayes{ $gardens ->
        [yes] {" "}et jardins
       *[no] {""}
    } inachevées 1 + les tuiles qui les entourent.

## Top bar on narrow phones

nav-new-game-short = Jouer
nav-games-short = Parties
nav-learn-short = Leçons
nav-sign-in-short = Connexion

## Replay

replay-first = Début
replay-back = Reculer
replay-play = Lecture
replay-forward = Avancer
replay-end = Fin
replay-turn = Tour
replay-finished = partie terminée
replay-unfinished = partie inachevée
replay-back-to-game = Retour à la partie
replay-log = Journal
replay-scores = Scores
replay-start-tile = La tuile de départ
replay-banner = Tour { $k } : { $name } { $you ->
        [yes] posez
       *[no] pose
    } { $tile }{ $deploy }{ $done }
replay-with = {" "}avec un { $role }
replay-final = {" "}— décompte final

## Hints
hint = Conseil
hint-title = Le meilleur coup de la recherche, dessiné sur le plateau
hint-thinking = Réflexion…
hint-close = Fermer le conseil
hint-none-online = Pas de conseil dans une partie en ligne avec d’autres personnes.
outnumbered = ({ $who } en minorité)

## Errors (hints)
error-no_hints = Pas de conseil dans une partie classée ou en ligne avec d’autres personnes.

## Ratings
account-profile = Votre profil
home-rated = Partie classée (entre humains seulement, jamais contre un bot ; connecté ; règles d’un préréglage ; les invités se connectent pour prendre leur place)
error-not_ratable = Cette partie ne peut pas être classée.
game-rated = Classée
results-ratings = Classements
results-ratings-pending = Les classements sont mis à jour…

## Passkeys
account-of = Compte de { $name }
account-passkey-also = Vous pouvez aussi vous connecter sans mot de passe :
account-add-passkey = ajouter une clé d’accès
error-passkeys_unavailable = Les clés d’accès ne fonctionnent pas à cette adresse du serveur.
error-challenge_expired = Cela a pris trop de temps : réessayez.
error-passkey_refused = Cette clé d’accès n’a pas été acceptée.

## Account page and recovery
settings-title = Votre compte
settings-signed-out = Vous n’êtes pas connecté.
settings-signed-in-as = Connecté en tant que { $name }.
settings-password-title = Mot de passe
settings-current-password = Mot de passe actuel
settings-new-password = Nouveau mot de passe
settings-password-others = Vos autres appareils seront déconnectés.
settings-password-change = Changer le mot de passe
settings-password-changed = Mot de passe changé. Vos autres appareils sont déconnectés.
settings-sessions-title = Appareils
settings-sessions-text = Connecté sur un appareil que vous n’avez plus ? Déconnectez-vous partout, y compris ici.
settings-sign-out-everywhere = Se déconnecter partout
settings-delete-title = Supprimer votre compte
settings-delete-text = Cela supprime définitivement votre compte, vos classements, votre profil et vos clés d’accès. Les parties jouées gardent leurs coups ; les listes affichent « joueur supprimé ».
settings-delete-password = Votre mot de passe, pour confirmer
settings-delete-button = Supprimer mon compte
settings-deleted-title = Votre compte est supprimé
settings-deleted-text = Vous pouvez toujours jouer en invité.
recover-forgot = Mot de passe oublié ?
recover-title = Choisir un nouveau mot de passe
recover-why = Avec le code de récupération affiché à la création du compte. Tous les appareils connectés à ce compte sont déconnectés.
recover-code = Code de récupération
recover-submit = Enregistrer le nouveau mot de passe
recover-done = Bon retour, { $name }
recover-next-code = Votre mot de passe est changé. Le code utilisé ne sert plus : voici votre nouveau code de récupération, affiché une seule fois. Notez-le ou gardez-le dans votre gestionnaire de mots de passe.
lobby-signed-in-name = Connecté : vous jouez sous le nom { $name }.
# Push notifications (written by the server in the subscription's language: services/push.rs)
push-turn-title = À vous de jouer
push-turn-body = À vous de jouer dans la partie { $game } ({ $name } contre { $others })
push-invite-title = Votre invitation a été acceptée
push-invite-body = La place de { $name } dans la partie { $game } est prise

## Chat and rematch
home-chat-off = Pas de discussion dans cette partie
error-chat_off = La discussion est désactivée dans cette partie.
error-empty_message = Le message est vide.
error-message_too_long = Le message est trop long.
error-chat_too_fast = Trop de messages : attendez un instant.
error-chat_full = La discussion des joueurs de cette partie est pleine.
error-chat_crowded = Tant de spectateurs ont écrit dans cette partie que seuls les habitués peuvent encore s’y joindre : un compte d’au moins un jour ayant joué une partie classée jusqu’au bout.
error-chat_not_agreed = La discussion ne se télécharge que si tous les joueurs l’ont accepté.
error-game_not_over = La partie n’est pas encore finie.
error-already_accepted = Vous avez déjà accepté la revanche.

## Notifications
error-bad_subscription = L’abonnement aux notifications de ce navigateur a été refusé.
error-too_many_subscriptions = Ce navigateur, cette place ou votre adresse a déjà trop de notifications enregistrées (un compte d’au moins un jour ayant joué une partie classée a sa propre part).

## Clocks
error-bad_clock = Ce contrôle du temps n’est pas proposé par le serveur.
error-time_up = Votre temps est écoulé : les autres peuvent confier votre place à un bot.
error-not_away = Cette place a encore du temps, ou son joueur n’est pas absent depuis assez longtemps.
error-cannot_abort = La partie ne peut plus être annulée : chaque joueur a déjà joué.
error-cannot_end = La partie ne peut pas être terminée ici : aucune place n’est à court de temps à l’instant.

## Lobby
nav-lobby = Salon
nav-lobby-short = Salon
nav-watch = Regarder
nav-watch-short = Regarder
watch-title = Parties à regarder
watch-page-title = Parties à regarder — Carcassonne
watch-about = Les parties publiques en cours, celles des joueurs les mieux classés d’abord, avec le classement de chaque joueur. Les parties du salon et de « Jouer maintenant » y sont aussi.
watch-none = Aucune partie publique n’est en cours.
home-watch-all = Toutes les parties à regarder
lobby-watch = Parties en cours, à regarder
home-lobby-link = Jouer en ligne contre des personnes : le salon

## Errors (lobby)
error-already_paired = Vous avez déjà un adversaire : votre partie commence.
error-already_seated = Vous êtes déjà assis à cette table.
error-too_many_seats = Vous occupez déjà quatre places à des tables ouvertes : libérez-en une d’abord.
error-already_waiting = Vous attendez déjà : dans un autre onglet ou une autre fenêtre, sur un autre appareil, ou quelqu’un à votre adresse attend.
error-name_taken_here = Quelqu’un à cette table porte déjà ce nom.
error-needs_socket = Le salon a besoin de sa connexion en direct : rechargez la page.
error-not_host = Seul l’hôte de la table peut le faire.
error-rated_needs_preset = Une table classée joue un préréglage sans règles maison.
error-seat_taken = Cette place est prise.
error-table_started = Cette table a commencé.
error-needs_history = Cette table est réservée aux habitués : un compte d’au moins un jour ayant joué une partie classée jusqu’au bout.
error-too_few_players = Une partie demande au moins deux joueurs.

## Clocks and your turn
clock-days-left = { $n ->
        [one] { $n } jour restant
       *[other] { $n } jours restants
    }
clock-hours-left = { $n ->
        [one] { $n } heure restante
       *[other] { $n } heures restantes
    }
clock-minutes-left = { $n ->
        [one] { $n } minute restante
       *[other] { $n } minutes restantes
    }
clock-under-a-minute = moins d’une minute restante
clock-out = temps écoulé
clock-minutes = { $n ->
        [one] { $n } minute
       *[other] { $n } minutes
    }
clock-seconds = { $n ->
        [one] { $n } seconde
       *[other] { $n } secondes
    }
clock-seat = Place { $n }
clock-aborted = { $name } n’avait plus de temps avant que quiconque ait joué : la partie est annulée
clock-ran-out = { $name } n’a plus de temps
clock-bot-plays = Un bot ({ $level }) joue pour { $name }
clock-bot-plays-by = Un bot ({ $level }) joue pour { $name } (au choix de { $by })
clock-back = { $name } est de retour et rejoue
clock-log-move = Coup { $n }
clock-panel = Pendules
clock-standin = le bot ({ $level }) joue
clock-left = { $time } restant
clock-left-running = { $time } restant, en cours
clock-low = Plus que { $time } à votre pendule.
clock-handover-out = { $name } n’a plus de temps et ne joue plus. Confier sa place à un bot pour continuer ?
clock-handover-away = { $name } est absent depuis { $n ->
        [one] { $n } minute
       *[other] { $n } minutes
    }. Confier sa place à un bot jusqu’à son retour ?
clock-bot-level = Niveau du bot
clock-handover = Confier la place de { $name } à un bot
clock-flagged-note = Votre temps est écoulé : un bot joue votre place jusqu’à la fin de la partie.
clock-takeback-note = Un bot joue pour vous pendant votre absence.
clock-takeback = Reprendre ma place
clock-none = Sans pendule
clock-realtime = Temps réel { $m } min + { $s } s par coup
clock-custom = Temps réel, personnalisé…
clock-turn = { $n ->
        [one] Au tour par tour : { $n } jour par coup
       *[other] Au tour par tour : { $n } jours par coup
    }
clock-legend = Pendule
clock-control = Contrôle du temps
clock-minutes-each = Minutes chacun
clock-increment = Secondes ajoutées par coup
clock-away = Minutes d’absence avant qu’un bot puisse prendre une place
yourturn = À vous
yourturn-title = Parties où c’est à vous de jouer
yourturn-count = { $n ->
        [one] À vous dans { $n } partie
       *[other] À vous dans { $n } parties
    }
yourturn-game = { $name } contre { $others }

## Rematch and notifications
rematch = Revanche
rematch-help = Mêmes places et règles ; le joueur suivant commence
rematch-ready = La revanche est prête.
rematch-waiting = Revanche : en attente de { $names }.
rematch-watch = Regarder la revanche
push-on = Me prévenir quand c’est à moi : activé (cliquer pour désactiver)
push-off = Me prévenir quand c’est à moi : désactivé (cliquer pour activer)
push-busy = Me prévenir quand c’est à moi : demande en cours…
push-blocked = Me prévenir quand c’est à moi : les notifications sont bloquées pour ce site dans les réglages du navigateur
push-unavailable = Me prévenir quand c’est à moi : ce navigateur ne peut pas recevoir de notifications de cette page

## Chat
chat-empty = Pas encore de message.
chat-phrase-good-game = Bien joué
chat-phrase-nice-move = Joli coup
chat-phrase-one-moment = Un instant
chat-phrase-your-turn = À vous quand vous voulez
chat-phrase-thanks = Merci !
chat-phrases = Phrases rapides
chat-message = Message
chat-send = Envoyer
chat-show = Afficher la discussion
chat-muted-one = { $name } est masqué
chat-unmuted-one = { $name } n’est plus masqué
chat-title = Discussion
chat-title-new = Discussion ({ $n } nouveaux)
chat-note = Les joueurs voient la discussion des joueurs ; celle des spectateurs s’affiche à la fin de la partie.
chat-watching = { $name } (spectateur)
chat-mute = Masquer
chat-mute-name = Masquer { $name }
chat-muted = Masqués :
chat-unmute-name = Ne plus masquer { $name }
chat-new-hidden = { $n ->
        [one] Un message d’un nouveau spectateur est masqué (vous avez masqué un spectateur).
       *[other] { $n } messages de nouveaux spectateurs sont masqués (vous avez masqué un spectateur).
    }
chat-show-new = Afficher
chat-offer = Proposer cette discussion au téléchargement avec la partie
chat-agreed = { $agreed } joueurs sur { $n } ont accepté le téléchargement de la discussion.
chat-download = Télécharger la discussion

## Passkeys (sign-in)
passkey-or = ou
passkey-sign-in = Se connecter avec une clé d’accès

## Outnumbered followers
outnumbered-part = { $n ->
        [one] { $role } de { $name }
       *[other] { $n } × { $role } de { $name }
    }
word-and = et

## Lobby, profiles, leaderboard
# (web/js/lobby.js, profile.js, leaderboard.js, the account page's passkeys
# in passkeys.js, and push.js's messages)

lobby-title = Salon
lobby-play-now = Jouer maintenant
lobby-play-now-about = Les règles de votre choix, contre qui les attend déjà (les joueurs de classement proche d’abord).
lobby-your-name = Votre nom
lobby-bot-after = Si personne ne vient, un bot après
lobby-never = jamais : continuer d’attendre
lobby-stop-waiting = Ne plus attendre
lobby-open-title = Ouvrir une table
lobby-other-seats = Les autres places
lobby-add-seat = + Ajouter une place
lobby-preset-standard = Standard
lobby-preset-beginner = Débutant
lobby-preset-first-edition = Première édition
lobby-rated = Classée (humains connectés, sans bots, règles sans variantes maison)
lobby-known-only = Habitués seulement (comptes d’au moins un jour ayant joué une partie classée)
lobby-open-go = Ouvrir la table
lobby-tables-title = Tables ouvertes
lobby-connecting = Connexion…
lobby-live = En direct : les tables apparaissent dès leur ouverture.
lobby-reconnecting = Reconnexion…
lobby-new-table = Nouvelle table de { $host }, { $free ->
        [one] { $free } place libre
       *[other] { $free } places libres
    }.
lobby-table-gone = La table de { $host } est fermée.
lobby-your-table-gone = Une table où vous étiez assis a été fermée
lobby-seat = Place { $n }
lobby-seat-open = Libre pour un joueur
lobby-level = Niveau
lobby-remove-seat = Retirer la place { $n }
lobby-no-tables = Pas encore de table ouverte : ouvrez-en une, ou appuyez sur « Jouer maintenant ».
lobby-open = libre
lobby-sit = S’asseoir ici
lobby-sit-label = S’asseoir ici : place { $n } à la table de { $host }
lobby-bot-seat = (bot, { $level })
lobby-host = (hôte)
lobby-you = (vous)
lobby-seat-of = Place { $n } :
lobby-start = Lancer la partie
lobby-close-table = Fermer la table
lobby-stand = Se lever
lobby-table-of = Table de { $host }
lobby-badge-rated = classée
lobby-badge-casual = amicale
lobby-the-rules = Les règles
lobby-seats-free = { $free ->
        [one] { $free } place libre sur { $total }
       *[other] { $free } places libres sur { $total }
    }
lobby-host-rating = classement de l’hôte { $rating } ({ $pool })
lobby-badge-known = habitués seulement
lobby-known-only-seat = réservée aux habitués
lobby-seats = Places
lobby-sat-down = Vous êtes assis : la partie s’ouvre quand elle commence
lobby-table-opened = Votre table est ouverte : elle commence quand elle est complète, ou quand vous la lancez
lobby-paired-bot = Personne n’est venu : une partie contre un bot commence.
lobby-paired = Adversaire trouvé : la partie commence.
lobby-looking = Recherche d’un joueur… { $s } s
lobby-stopped = Attente arrêtée.
lobby-wait-ended = Votre attente a pris fin : appuyez sur « Jouer maintenant » pour chercher à nouveau.
profile-loading = Chargement du profil…
profile-not-found = Joueur introuvable
profile-nobody = Personne ne joue ici sous le nom « { $name } ».
profile-see-leaderboard = Voir le classement
profile-page-title = { $name } — Carcassonne
profile-pool-duel = Jeu de base, deux joueurs (Glicko-2)
profile-pool-multi = Jeu de base, trois à six joueurs (Weng-Lin)
profile-provisional = provisoire
profile-provisional-title = { $n ->
        [one] Moins de { $n } partie classée
       *[other] Moins de { $n } parties classées
    }
profile-rated-games = { $n ->
        [one] { $n } partie classée
       *[other] { $n } parties classées
    }
profile-chart = { $n ->
        [one] Classement sur { $n } partie classée
       *[other] Classement sur { $n } parties classées
    } : de { $first } à { $last }, au plus bas { $low }, au plus haut { $high }.
profile-history = L’historique du classement en tableau
profile-history-caption = Le classement après chaque partie classée
profile-col-game = Partie
profile-col-place = Rang
profile-col-before = Avant
profile-col-after = Après
profile-ratings = Classements
profile-no-rated = Pas encore de partie classée.
profile-bot = (bot { $level })
profile-result-won = gagnée
profile-result-lost = perdue
profile-result-shared-win = victoire partagée
profile-result-in-play = en cours
profile-rated = classée
profile-replay = Revoir
profile-review = Analyser
profile-watch = Regarder
profile-no-games = Pas encore de partie.
profile-games = Parties
profile-filters = Filtrer les parties
profile-filter-rated-label = Classée
profile-filter-clock-label = Pendule
profile-filter-result-label = Résultat
profile-filter-all = Toutes
profile-filter-rated = Classées seulement
profile-filter-casual = Amicales seulement
profile-filter-realtime = Temps réel
profile-filter-turn = Par tour
profile-filter-none = Aucune partie ne correspond à ces filtres.
profile-col-won = Gagnées
profile-col-win-rate = Taux de victoire
profile-since = Joue depuis le { $date }
profile-leaderboard = Classement
profile-win-rates = Taux de victoire
profile-by-rules = Par règles
profile-col-rules = Règles
profile-by-players = Par nombre de joueurs
profile-col-players = Joueurs
profile-no-finished = Pas encore de partie terminée.
leaderboard-loading = Chargement du classement…
leaderboard-title = Classement
leaderboard-page-title = Classement — Carcassonne
leaderboard-duel = Deux joueurs
leaderboard-multi = Trois à six joueurs
leaderboard-col-rank = Rang
leaderboard-col-player = Joueur
leaderboard-col-rating = Points
leaderboard-col-games = Parties
leaderboard-col-bot = Bot
leaderboard-nobody = { $n ->
        [one] Personne pour l’instant : un joueur apparaît ici après { $n } partie classée.
       *[other] Personne pour l’instant : un joueur apparaît ici après { $n } parties classées.
    }
leaderboard-about = { $n ->
        [one] Parties classées uniquement. Un classement est provisoire pendant sa première partie.
       *[other] Parties classées uniquement. Un classement est provisoire pendant ses { $n } premières parties.
    }
leaderboard-bots = Bots
leaderboard-bots-about = La force de chaque bot sur l’échelle de classement, mesurée en faisant jouer les bots entre eux. Les parties contre un bot ne sont jamais classées.
passkeys-title = Clés d’accès
passkeys-about = Une clé d’accès vous connecte avec votre empreinte, votre visage ou le code PIN de votre appareil au lieu de votre mot de passe. Votre mot de passe continue de fonctionner.
passkeys-name-label = Nom de la nouvelle clé d’accès (facultatif)
passkeys-name-placeholder = p. ex. Mon téléphone
passkeys-add = Ajouter une clé d’accès
passkeys-no-browser = Ce navigateur ne peut pas utiliser de clés d’accès.
passkeys-none = Pas encore de clé d’accès.
passkeys-added-on = Ajoutée le { $date }
passkeys-last-used = dernière utilisation le { $date }
passkeys-not-used = pas encore utilisée
passkeys-remove = Retirer
passkeys-remove-named = Retirer la clé d’accès { $name }
passkeys-waiting = En attente de votre clé d’accès…
passkeys-added = Clé d’accès ajoutée. Vous pouvez vous connecter avec dès maintenant.
passkeys-removed = Clé d’accès { $name } retirée.
passkey-not-used = Aucune clé d’accès n’a été utilisée (annulé, ou aucune pour ce site).
passkey-already-added = Cette clé d’accès est déjà sur votre compte.
passkey-refused = Cette clé d’accès n’a pas été acceptée. Est-elle bien de ce compte ?
passkey-failed = la clé d’accès n’a pas fonctionné
push-will-notify = Vous serez prévenu quand ce sera votre tour
push-no-more = Plus de notifications pour cette partie
push-on-failed = Les notifications n’ont pas pu être activées : { $reason }
push-off-failed = Les notifications n’ont pas pu être désactivées : { $reason }
push-no-worker = le service worker n’est pas prêt
push-cannot = Ce navigateur ne peut pas recevoir de notifications de cette page (il faut https et un navigateur avec Web Push).

## Tutorial, puzzles, review
## Les mots des vues d’apprentissage (learn.js, practice.js, puzzles.js,
## review.js, hint.js et le « pourquoi » d’un décompte dans panels.js). Les
## textes des leçons sont lesson-KEY-title, -intro, -goal et -done, KEY la clé
## d’une leçon dans web/learn/lessons.json. Les faits du moteur ($side, $ours,
## $theirs, $feature, $role d’une règle ; une direction $from ou $dir ; une
## zone $what) arrivent comme ses codes anglais, pour les sélecteurs.

### Le tutoriel
learn-title = Apprendre à jouer
learn-intro = De courtes leçons sur le vrai plateau. Chacune met en place une position ; vous jouez le coup, et le moteur de règles du jeu le vérifie.
learn-progress = { $done } leçons terminées sur { $total }
learn-you = Vous
learn-check = Jouer ce coup
learn-retry = Réessayer
learn-show = Montrez-moi
learn-next = Leçon suivante
learn-back = Toutes les leçons
learn-done-badge = terminée
learn-reset = Oublier ma progression
learn-go-on = Continuer
learn-start = Commencer
learn-lesson-of = leçon { $n } sur { $total }
learn-goal-label = Objectif :
learn-undo = Annuler
learn-refused = Interdit
learn-keys = Touches : les flèches déplacent la tuile, R la tourne, F choisit un partisan, Entrée joue, Échap annule.
learn-place-first = Posez d’abord la tuile sur le plateau : touchez ou cliquez une case à côté d’une tuile, ou utilisez les flèches.
learn-no-follower = Aucun partisan
learn-recall = Reprendre l’abbé
learn-checking = Vérification…
learn-solved = Bravo !
learn-finished-all = Vous avez terminé toutes les leçons. Essayez un problème, ou commencez une partie.
learn-loading = Chargement des leçons…
learn-load-failed = Les leçons ne peuvent pas être chargées (HTTP { $status }).
learn-placed = { $place }, tournée de { $deg }°
learn-move = { $tile }, { $place }, tournée de { $deg }°, { $follower }
learn-points = { $points ->
        [one] { $points } point
       *[other] { $points } points
    } ({ $what })
learn-what-final = { $what }, à la fin
learn-what-recall = abbé repris
learn-goal-miss = Les règles autorisent ce coup, mais il ne fait pas ce que demande cette leçon : { $goal }
learn-goal-miss-scored = Ce coup rapporte { $scored } ; la leçon demande : { $goal }
learn-goal-miss-deploy = Les règles autorisent ce coup, mais la leçon veut votre { $role ->
        [abbot] abbé
        [knight] chevalier
        [thief] voleur
        [monk] moine
        [farmer] paysan
        [builder] bâtisseur
        [pig] cochon
       *[other] partisan
    } sur le plateau.

### Pourquoi les règles refusent un coup (par le code de règle du moteur)
learn-error-edge_mismatch = Ce bord met { $ours ->
        [city] une ville
        [road] une route
        [river] la rivière
       *[field] un pré
    } contre { $theirs ->
        [city] une ville
        [road] une route
        [river] la rivière
       *[field] un pré
    } (le bord { $side ->
        [north] nord
        [east] est
        [south] sud
       *[west] ouest
    } de la tuile). Chaque bord doit prolonger son voisin : route contre route, ville contre ville, pré contre pré. Tournez la tuile (R) ou essayez une autre case.
learn-error-not_adjacent = Une tuile doit toucher une tuile déjà posée sur tout un côté, pas seulement par un coin.
learn-error-cell_occupied = Une tuile est déjà posée là.
learn-error-feature_occupied = { $feature ->
        [city] Cette ville a
        [road] Cette route a
       *[field] Ce pré a
    } déjà un { $role ->
        [knight] chevalier
        [thief] voleur
        [farmer] paysan
        [monk] moine
       *[other] partisan
    } : vous ne pouvez placer un partisan que sur une route, une ville ou un pré que personne n’occupe encore, même par un morceau relié plus loin.
learn-error-bad_spot = Cet emplacement n’existe pas sur cette tuile.
learn-error-farmers_off = Avec ces règles (sans décompte des prés), personne ne joue de paysans : les prés ne rapportent jamais rien. Placez votre partisan sur une route, une ville ou une abbaye, ou nulle part.
learn-error-no_follower = Il ne vous reste aucun partisan : ils sont tous sur le plateau.
learn-error-river_not_continued = Une tuile rivière doit prolonger la rivière depuis son extrémité ouverte.
learn-error-river_u_turn = La rivière ne peut pas tourner deux fois de suite du même côté (pas de demi-tour).
learn-error-garden_for_abbot = Seul l’abbé peut se tenir dans un jardin : choisissez l’abbé (A), pas un partisan.
learn-error-abbot_spot = L’abbé ne va que dans une abbaye ou un jardin.
learn-error-abbot_in_use = Votre abbé est déjà sur le plateau : vous pouvez plutôt le reprendre (il rapporte ce que vaut sa place).
learn-error-abbot_not_placed = Votre abbé n’est pas sur le plateau : il n’y a rien à reprendre.
learn-error-recall_complete = Cette tuile achève l’abbaye ou le jardin de l’abbé : il est décompté en entier, on ne peut donc pas le reprendre.
learn-error-no_abbot = L’abbé n’est pas en jeu avec ces règles.
learn-error-other = Les règles n’autorisent pas ce coup : { $message }

### Les leçons
lesson-lay-title = Poser une tuile
lesson-lay-intro = À chaque tour, vous piochez une tuile et la posez à côté des tuiles déjà sur la table. La tuile de départ a une ville en haut et une route qui la traverse. Votre tuile, un virage de route, doit prolonger ce qu’elle touche : route contre route, ville contre ville, pré contre pré.
lesson-lay-goal = Posez le virage de façon qu’il touche le plateau avec des bords qui correspondent.
lesson-lay-done = Voilà un tour : la tuile s’insère. Vous auriez aussi pu y placer un partisan. Posez le même virage dans l’autre sens, et les règles expliquent pourquoi il ne s’insère pas.
lesson-road-title = Routes et voleurs
lesson-road-intro = Un partisan sur une route est un voleur. Vous avez placé un voleur sur la route à l’ouest du départ ; elle s’y termine à un carrefour. Une route est achevée quand ses deux extrémités s’arrêtent (à un carrefour, une ville, une abbaye ou en boucle). Une route achevée rapporte 1 point par tuile au propriétaire du voleur, et le voleur revient.
lesson-road-goal = Fermez votre route avec cette tuile carrefour : elle rapporte 3 points (3 tuiles).
lesson-road-done = 3 tuiles, 3 points, et votre voleur est de retour dans votre réserve. Vous n’auriez pas pu ajouter un second voleur sur la même route : le vôtre y est déjà.
lesson-city-title = Villes, chevaliers et blasons
lesson-city-intro = Un partisan dans une ville est un chevalier. Votre chevalier tient la ville au-dessus du départ ; sa tuile porte un blason. Une ville achevée rapporte 2 points par tuile et 2 de plus par blason.
lesson-city-goal = Fermez la ville avec le bord ville de votre tuile : 3 tuiles et 1 blason font 8 points.
lesson-city-done = 2 × 3 tuiles + 2 pour le blason = 8 points, et le chevalier revient. Une ville encore ouverte à la fin de la partie ne rapporte que 1 par tuile et 1 par blason.
lesson-cloister-title = Abbayes et moines
lesson-cloister-intro = Un partisan dans une abbaye est un moine. Votre moine se tient dans l’abbaye au sud du départ, et 7 des 8 cases qui l’entourent sont remplies. Une abbaye est achevée quand les 8 le sont : elle rapporte 9 points (1 pour elle-même et 1 par voisine).
lesson-cloister-goal = Remplissez la dernière case autour de l’abbaye : votre moine rapporte 9 points.
lesson-cloister-done = 9 points. N’importe qui peut remplir les cases autour d’une abbaye ; les points vont au propriétaire du moine.
lesson-share-title = Partager une ville
lesson-share-intro = Votre chevalier tient la petite ville au nord-ouest du départ, celui de Bea celle du nord-est ; la ville de la tuile de départ se trouve entre les deux. Personne ne peut placer un chevalier dans une ville qui en a déjà un, mais une tuile peut relier des villes tenues séparément. Quand une zone reliée est achevée, celui qui y a le plus de partisans la marque ; en cas d’égalité, chaque joueur à égalité marque tous les points.
lesson-share-goal = Posez la grande tuile ville au-dessus du départ pour relier les trois villes et les fermer : un chevalier chacun, donc vous et Bea marquez chacun 10 points (4 tuiles et un blason).
lesson-share-done = 4 tuiles × 2 + 2 pour le blason = 10 points chacun : une égalité ne partage rien, elle paie les deux en entier. Les deux chevaliers reviennent.
lesson-majority-title = Partager et prendre une zone
lesson-majority-intro = Vous ne pouvez pas placer un chevalier dans une ville qui en a déjà un, mais deux villes tenues séparément peuvent être reliées plus tard. Alors le joueur qui y a le plus de partisans marque tout ; en cas d’égalité, chaque joueur à égalité marque tous les points. Vous tenez deux petites villes (au nord du départ, et deux cases au nord, une à l’est) ; le chevalier de Bea tient la ville à l’est du départ.
lesson-majority-goal = Reliez les trois villes en une seule et fermez-la : vos deux chevaliers battent celui de Bea, et vous prenez les 10 points.
lesson-majority-done = 5 tuiles × 2 = 10 points, tous pour vous : deux chevaliers contre un. À un contre un, vous auriez marqué 10 chacun. Tous les partisans qui s’y trouvent reviennent.
lesson-farm-per-farm-title = Paysans : la règle standard (par pré)
lesson-farm-per-farm-intro = Un partisan couché dans un pré est un paysan. Les prés ne sont décomptés qu’à la fin de la partie : avec la règle standard (par pré), chaque pré rapporte au propriétaire de ses paysans 3 points par ville achevée qu’il touche. Une ville peut vous payer deux fois par deux prés. Vos paysans sont dans deux prés : le pré entre les deux villes au-dessus du départ, et le pré au nord de la route à l’est de celui-ci.
lesson-farm-per-farm-goal = Posez la dernière tuile de façon qu’elle ferme la ville du haut. Puis la partie se termine : le premier pré touche 2 villes achevées (6 points), le second 1 (3 points).
lesson-farm-per-farm-done = 6 + 3 = 9 points : la ville au-dessus du départ vous a payé deux fois, une fois par chaque pré.
lesson-farm-per-farm-once-title = Paysans : chaque ville paie une fois (une option)
lesson-farm-per-farm-once-intro = Le même plateau avec la règle des prés « par pré, une fois » (la révision de 2001) : les prés sont décomptés comme avant, mais chaque ville achevée ne paie chaque joueur qu’une fois, quel que soit le nombre de ses prés qu’il tient.
lesson-farm-per-farm-once-goal = Fermez la ville du haut avec la dernière tuile : les deux villes achevées vous paient 3 chacune, 6 points.
lesson-farm-per-farm-once-done = 6 points, pas 9 : la ville au-dessus du départ ne vous paie qu’une fois, bien que deux de vos prés la touchent.
lesson-farm-per-city-title = Paysans : les règles de la première édition (par ville)
lesson-farm-per-city-intro = Le même plateau avec la règle des prés « par ville » (la première édition) : pour chaque ville achevée, on compte les paysans de chaque joueur dans tous les prés qui la touchent ; celui qui en a le plus marque 4 points pour cette ville.
lesson-farm-per-city-goal = Fermez la ville du haut avec la dernière tuile : chacune des deux villes achevées vous paie 4, soit 8 points.
lesson-farm-per-city-done = 4 + 4 = 8 points : un paiement par ville achevée, au joueur qui a le plus de paysans autour.
lesson-farm-off-title = Sans paysans : les règles pour débutants
lesson-farm-off-intro = Le même plateau sans décompte des prés (comme les règles le conseillent pour les premières parties) : personne ne peut coucher un paysan dans un pré, et les prés ne rapportent jamais rien.
lesson-farm-off-goal = Fermez la ville du haut avec un chevalier dedans : une ville de 2 tuiles, 4 points.
lesson-farm-off-done = 4 points pour la ville, et rien pour les prés. Essayez de coucher un paysan : les règles le refusent.
lesson-final-title = Le décompte final
lesson-final-intro = Quand la dernière tuile est posée, chaque partisan encore sur le plateau rapporte ce qu’il tient, même inachevé : une route 1 par tuile, une ville 1 par tuile et 1 par blason, une abbaye 1 plus 1 par voisine ; puis les prés. Voici la dernière tuile de la partie.
lesson-final-goal = Posez la tuile ville avec son blason au-dessus du départ, avec un chevalier dans la ville : à la fin, la ville ouverte rapporte 3 points (2 tuiles et 1 blason).
lesson-final-done = Une ville inachevée rapporte moitié moins : 1 par tuile, 1 par blason. Fermée, elle aurait valu 6.
lesson-river-title = La Rivière
lesson-river-intro = Avec La Rivière, la partie commence à la source, et les tuiles rivière sont piochées en premier. Chacune doit prolonger la rivière depuis son extrémité ouverte ; la rivière ne revient jamais sur elle-même. Les routes, villes et prés qui la bordent se jouent comme d’habitude.
lesson-river-goal = Posez la tuile rivière sous la source pour que la rivière continue de couler.
lesson-river-done = La rivière continue. Quand elle atteint le lac, les tuiles ordinaires commencent.
lesson-abbot-garden-title = L’Abbé et le jardin
lesson-abbot-garden-intro = Avec L’Abbé, chaque joueur a aussi un abbé. Il ne va que dans une abbaye ou un jardin (la tache verte de certaines tuiles), et lui seul peut se tenir dans un jardin. Un jardin se décompte comme une abbaye : 9 quand il est entouré, 1 + les voisines à la fin.
lesson-abbot-garden-goal = Posez la tuile avec le jardin au-dessus du départ et placez votre abbé (A) dans son jardin.
lesson-abbot-garden-done = Votre abbé cultive le jardin. Un partisan ne peut pas s’y tenir : seulement un abbé.
lesson-abbot-recall-title = Reprendre l’abbé
lesson-abbot-recall-intro = Au lieu de placer un partisan sur la tuile que vous posez, vous pouvez reprendre votre abbé : il rapporte aussitôt ce que vaut maintenant son abbaye ou son jardin (1 + chaque tuile autour), et vous revient.
lesson-abbot-recall-goal = Posez la tuile abbaye à l’ouest du jardin et reprenez votre abbé : 1 + 4 voisines = 5 points.
lesson-abbot-recall-done = 5 points tout de suite, et votre abbé est de nouveau libre. C’était la dernière tuile : la route de votre voleur rapporte ensuite 3 à la fin.

### Problèmes
puzzle-loading = Chargement des problèmes…
puzzle-load-failed = Les problèmes ne peuvent pas être chargés (HTTP { $status }).
puzzle-player = Joueur { $n }
puzzle-title = Problèmes
puzzle-intro = Des positions de parties entre bots où un coup est nettement le meilleur : la recherche estime qu’il vous fait finir la partie avec au moins { $gap } points de mieux que tout autre coup, sur deux tirages séparés des tuiles à venir. Vous voyez ce que voyait le joueur : le plateau, les scores, la tuile à poser et combien il reste de chaque tuile, jamais l’ordre du sac.
puzzle-today = Problème du jour
puzzle-progress = { $done } résolus sur { $total }
puzzle-name = Coup { $turn } : le meilleur de { $legal } coups
puzzle-solved-badge = résolu
puzzle-all = Tous les problèmes
puzzle-bag = { $count ->
        [one] { $count } tuile reste dans le sac
       *[other] { $count } tuiles restent dans le sac
    }
puzzle-bag-list = Les tuiles qui restent
puzzle-goal = Trouvez le coup nettement meilleur : la case, l’orientation de la tuile et le partisan (ou aucun). La recherche estime qu’il vaut au moins { $gap } points de plus que tout autre.
puzzle-show = Montrer la solution
puzzle-next = Problème suivant
puzzle-right = Exact !
puzzle-explain = Le meilleur coup : { $best }. La recherche estime qu’après lui vous finissez la partie à { $margin } points du meilleur autre joueur ; le deuxième meilleur coup, { $second }, est { $gap } points derrière.
puzzle-wrong = Les règles l’autorisent, mais ce n’est pas le coup nettement meilleur. Le vôtre : { $yours } ; il rapporte maintenant { $scored ->
        [one] { $scored } point
       *[other] { $scored } points
    }.
puzzle-hint = Indice : le meilleur coup se trouve { $beside }. Réessayez, ou affichez la solution.
puzzle-beside = à côté { $list }
puzzle-beside-part = { $what ->
        [city] de la ville
        [road] de la route
       *[cloister] de l’abbaye
    } { $dir ->
        [north] au nord
        [east] à l’est
        [south] au sud
       *[west] à l’ouest
    }
puzzle-answer-beside = { $move }, { $beside }

### L’analyse de la partie (dans le lecteur de parties)
review-title = Analyse
review-progress = La recherche analyse la partie : { $done } coups sur { $total }…
review-load-failed = L’analyse n’a pas pu être chargée.
review-step = Avancez dans la partie pour voir ce que la recherche a pensé de chaque coup.
review-better = Coup { $turn }, { $name } : mieux valait { $tile } { $better } : { $gain }.
review-agrees = Coup { $turn }, { $name } : la recherche est d’accord.
review-played = Joué : { $move }.
review-show-better = Le montrer sur le plateau
review-back-to-played = Revenir au coup joué
review-totals = Points perdus faute de meilleurs coups, selon l’estimation de la recherche : { $totals }
review-totals-about = La valeur du meilleur coup de la recherche moins celle du coup joué, chacune l’écart final moyen sur des ordres de tuiles tirés au hasard (budget { $budget } par coup)
review-curve-dot = coup { $turn } : { $lost } estimé
review-curve-axis = coup
review-banner = Coup { $turn } : pour { $name }, mieux valait { $tile } { $better }
review-move = { $where }, { $follower }
review-where = { $from ->
        [north] au nord
        [north-east] au nord-est
        [east] à l’est
        [south-east] au sud-est
        [south] au sud
        [south-west] au sud-ouest
        [west] à l’ouest
       *[north-west] au nord-ouest
    } { $what ->
        [cloister] de l’abbaye
        [garden] du jardin
        [city] de la ville
        [road] de la route
        [field] du pré
        [city-tile] de la tuile avec une ville
        [road-tile] de la tuile avec une route
       *[start] de la tuile de départ
    }
review-held = { $where } avec { $role ->
        [knight] le chevalier
        [thief] le voleur
        [monk] le moine
        [abbot] l’abbé
       *[farmer] le paysan
    } de { $name }
review-beside = à côté { $what ->
        [cloister] de l’abbaye
       *[garden] du jardin
    }
review-where-and = { $first } et { $second }
review-same-place = au même endroit
review-same-place-turned = au même endroit, { $turn ->
        [1] tournée d’un quart de tour
        [2] tournée d’un demi-tour
       *[3] tournée de trois quarts de tour
    }
review-follower-none = aucun partisan
review-follower-recall = en reprenant l’abbé
review-gain-little = un peu plus ({ $points } point)
review-gain-about = environ { $n ->
        [one] { $n } point
       *[other] { $n } points
    } de plus

### La phrase du conseil
hint-looking = La recherche cherche un bon coup…
hint-words = Conseil : { $where }, { $follower } — { $gain }.
hint-gain = { $gain } que votre coup moyen
hint-gain-none = à peu près aussi bon que votre coup moyen : ici, tous les coups se valent à peu près
hint-error-rate_limited = Trop de conseils : attendez un instant et réessayez.
hint-error-busy = La recherche est occupée : réessayez dans un instant.
hint-error-stale_version = La partie a avancé : redemandez.
hint-error-other = Pas de conseil : { $message }

### Pourquoi un décompte a rapporté (montré sur le plateau)
why-road = Une route achevée de { $tiles ->
        [one] { $tiles } tuile
       *[other] { $tiles } tuiles
    } : { $tiles } × 1 = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-road-final = Une route inachevée de { $tiles ->
        [one] { $tiles } tuile
       *[other] { $tiles } tuiles
    } : { $tiles } × 1 = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-city = { $state ->
        [final] Une ville inachevée
        [small] Une petite ville achevée
       *[done] Une ville achevée
    } de { $tiles ->
        [one] { $tiles } tuile
       *[other] { $tiles } tuiles
    }{ $shields ->
        [0] {""}
        [one] {" "}et { $shields } blason
       *[other] {" "}et { $shields } blasons
    } : { $tiles } × { $each }{ $shields ->
        [0] {""}
       *[other] {" "}+ { $shields } × { $each }
    } = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-cloister = { $kind ->
        [garden] Un jardin entouré
       *[cloister] Une abbaye entourée
    } de ses 8 tuiles : 1 + 8 = { $points } points.
why-cloister-final = { $kind ->
        [garden] Un jardin inachevé
       *[cloister] Une abbaye inachevée
    } : 1 + { $around ->
        [one] { $around } tuile
       *[other] { $around } tuiles
    } autour = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-farm = Un pré qui approvisionne { $cities ->
        [one] { $cities } ville achevée
       *[other] { $cities } villes achevées
    } : { $cities } × { $each } = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-points = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-roles = { $role ->
        [knight] chevaliers
        [thief] voleurs
        [monk] moines
        [farmer] paysans
        [abbot] abbés
       *[other] partisans
    }
why-most = { $names } { $n ->
        [one] avait
       *[other] avaient
    } le plus de { $roles } ici : { $n ->
        [one] { $points } points
       *[other] chacun marque { $points }
    }.
why-alone = Un seul joueur en avait ici : { $name }, avec { $n ->
        [one] un { $role }
       *[other] { $n } { $roles }
    }.
why-tie = Égalité pour le plus de { $roles } ({ $tally }) : { $names } marquent chacun { $points } points.
why-beat = { $name } avait le plus de { $roles } ({ $tally }) et marque { $points } points ; les autres rien.
why-counted = { $n ->
        [one] Le partisan en surbrillance a compté.
       *[other] Les partisans en surbrillance ont compté.
    }
why-counted-beaten = { $n ->
        [one] Le partisan en surbrillance a compté
       *[other] Les partisans en surbrillance ont compté
    } ; { $beaten } { $m ->
        [one] était en minorité et n’a rien marqué
       *[other] étaient en minorité et n’ont rien marqué
    }.

## Finir une partie plus tôt : abandonner, quitter, annuler, finir à la chute du drapeau (clock.js)
end-resign = Abandonner
end-resign-seat = Abandonner pour { $name }
end-leave = Quitter la partie
end-leave-seat = Quitter pour { $name }
end-panel = Finir la partie
end-abort = Annuler la partie
end-finish = Finir la partie maintenant
end-play-on = Continuer contre un bot
end-cancel = Retour
end-resign-title = Abandonner cette partie ?
end-resign-confirm = Abandonner
end-resign-text = Vous êtes hors de la partie et ne pouvez plus la gagner ; un bot joue votre place jusqu’à la fin.
end-resign-text-rated = Vous êtes hors de la partie et classé dernier : cette partie classée compte comme une défaite, et un bot joue votre place jusqu’à la fin.
end-resign-text-duel = La partie s’arrête maintenant et l’autre joueur gagne.
end-resign-text-duel-rated = La partie s’arrête maintenant et l’autre joueur gagne : cette partie classée compte comme une défaite pour vous.
end-leave-title = Quitter cette partie ?
end-leave-confirm = Quitter
end-leave-text = Un bot prend votre place et la joue jusqu’à la fin ; vous ne pourrez pas la reprendre.
end-leave-text-rated = Votre place reste la vôtre et votre pendule continue : quand elle tombe, vous perdez cette partie classée, et les autres peuvent confier votre place à un bot.
end-leave-text-rated-untimed = Cette partie classée n’a pas de pendule : la quitter, c’est abandonner. Vous êtes classé dernier, et elle compte comme une défaite.
end-resign-text-alone = Aucune autre personne ne joue plus : la partie s’arrête maintenant, et le meilleur score parmi les autres gagne.
end-resign-text-alone-rated = Aucune autre personne ne joue plus : la partie s’arrête maintenant, le meilleur score parmi les autres gagne, et cette partie classée compte comme une défaite pour vous.
end-leave-text-ends = La partie s’arrête maintenant, avec les scores actuels.
end-abort-title = Annuler cette partie ?
end-abort-confirm = Annuler la partie
end-abort-text = La partie s’arrête maintenant, sans avoir été jouée : aucun résultat pour personne.
end-abort-text-rated = La partie s’arrête maintenant, sans avoir été jouée : aucun résultat, et aucun classement ne change.
end-finish-title = Finir la partie maintenant ?
end-finish-confirm = Finir la partie
end-finish-text = La partie s’arrête avec les scores actuels ; le meilleur score gagne. Cette partie amicale ne change aucun classement.
end-flag-title = Le temps de { $name } est écoulé
end-flag-text = { $name } n’a plus de temps. Finir la partie maintenant avec les scores actuels, ou continuer avec un bot à sa place ?
end-log-resigned = { $name } a abandonné
end-log-left = { $name } a quitté la partie
end-log-aborted = { $name } a annulé la partie
end-log-ended = La partie s’est arrêtée en l’état à la sortie de { $name }
end-log-ended-flag = { $by } a fini la partie quand le temps de { $name } s’est écoulé
end-aborted-why = Un joueur a annulé la partie avant que tout le monde ait joué : elle s’arrête sans avoir été jouée, et ne compte pour personne.
banner-aborted-by = { $name } a annulé la partie : aucun résultat, aucun classement.

## Bloquer et signaler (moderation.js)
mod-block = Bloquer
mod-unblock = Débloquer
mod-block-name = Bloquer { $name }
mod-unblock-name = Débloquer { $name }
mod-report = Signaler
mod-report-name = Signaler { $name }
mod-report-line = Signaler ce message de { $name }
mod-blocked = Vous avez bloqué { $name } : vous ne verrez plus ses messages et ne serez plus mis en partie ni à table avec cette personne.
mod-unblocked = Vous avez débloqué { $name }.
mod-report-title = Signaler { $name }
mod-reason = Pourquoi ?
mod-reason-offensive_name = Nom choquant
mod-reason-abusive_chat = Propos injurieux dans le chat
mod-reason-cheating = Triche
mod-reason-other = Autre chose
mod-note = Un mot à ajouter (facultatif)
mod-report-help = L’opérateur du serveur lit les signalements et peut rendre muet, renommer ou fermer un compte. Il voit votre nom.
mod-report-send = Envoyer le signalement
mod-cancel = Annuler
mod-reported = Merci : votre signalement a été transmis à l’opérateur du serveur.
mod-blocks-title = Joueurs bloqués
mod-blocks-text = Vous ne voyez pas leurs messages dans le chat, et vous n’êtes jamais mis en partie ni à table avec eux.
mod-blocks-none = Vous ne bloquez personne.

## The operator's page (admin.js)
admin-title = Signalements
admin-page-title = Signalements — Carcassonne
admin-about = Les signalements de noms et de messages de discussion faits par les joueurs, les plus récents d’abord. Rendez muet, renommez ou fermez le compte signalé, puis classez le signalement.
admin-link-text = Vous administrez ce serveur : lisez les signalements des joueurs et traitez-les.
admin-open = Ouvrir les signalements
admin-show-all = Afficher aussi les signalements classés
admin-loading = Chargement des signalements…
admin-none = Aucun signalement en attente.
admin-none-all = Aucun signalement.
admin-what-name = Nom : { $name }
admin-what-chat = Message de { $name }
admin-whom-guest = { $name } (non connecté)
admin-whom-deleted = { $name } (compte supprimé)
admin-whom-renamed = { $name } (désormais { $now })
admin-reason = Motif
admin-reporter = Signalé par
admin-reporter-guest = un invité ayant une place dans la partie
admin-when = Quand
admin-against = Signalements en attente contre ce compte
admin-game = Partie
admin-state = Compte
admin-state-muted = muet jusqu’au { $until }
admin-state-closed = fermé le { $when }
admin-resolved-at = Classé
admin-note = Remarque :
admin-mute-for = Rendre muet pour
admin-hours = { $n ->
        [one] { $n } heure
       *[other] { $n } heures
    }
admin-days = { $n ->
        [one] { $n } jour
       *[other] { $n } jours
    }
admin-unmute = plus du tout (lever l’interdiction)
admin-mute = Rendre muet
admin-new-name = Nouveau nom
admin-rename = Renommer
admin-close = Fermer le compte
admin-close-confirm = Fermer le compte de { $name } ? Il est déconnecté partout et ne peut plus se connecter ni discuter ; ses parties et ses classements restent. C’est définitif : ni cette page ni carcassonne admin ne rouvrent un compte.
admin-resolve = Classer
admin-muted = { $name } ne peut plus discuter jusqu’au { $until }.
admin-unmuted = { $name } peut de nouveau discuter.
admin-renamed = { $was } s’appelle désormais { $name }.
admin-closed = Le compte de { $name } est fermé : déconnecté partout.
admin-closed-already = Le compte de { $name } était déjà fermé.
admin-resolved = Le signalement { $id } est classé.
error-muted = Vous ne pouvez pas écrire dans le chat pour l’instant : l’opérateur du serveur vous a rendu muet.
error-account_closed = Ce compte a été fermé par l’opérateur du serveur.
error-blocked = Vous ne pouvez pas vous asseoir à cette table.
error-cannot_block_self = Vous ne pouvez pas vous bloquer vous-même.
error-too_many_blocks = Vous bloquez déjà autant de joueurs que possible : débloquez-en un d’abord.
error-not_a_member = L’auteur de ce message n’était pas connecté : signalez-le plutôt.
error-cannot_report_self = Vous ne pouvez pas vous signaler vous-même.
error-already_reported = Vous l’avez déjà signalé.
error-reports_too_fast = Trop de signalements à la fois : attendez une minute.
error-too_many_reports = Trop de signalements attendent l’opérateur : réessayez plus tard.
# Reprises de coup (takeback.js) : dans une partie non classée, un joueur demande à reprendre son dernier coup.
takeback-panel = Reprise de coup
takeback-ask = Reprendre mon coup
takeback-ask-help = Demande aux autres joueurs d’annuler votre dernier coup (et les coups joués après lui).
takeback-waiting = Vous avez demandé à { $names } de reprendre votre coup…
takeback-asks = { $name } demande à reprendre son coup (coup { $n }).
takeback-asks-many = { $name } demande à reprendre son coup (coup { $n }) et les { $count } coups suivants.
takeback-asks-others = { $name } demande à reprendre son coup ; en attente de { $names }.
takeback-accept = Accepter
takeback-decline = Refuser
takeback-granted = Reprise acceptée : le coup { $n } a été repris.
takeback-granted-yours = Reprise acceptée : votre coup est repris. À vous de jouer.
takeback-declined = { $name } a refusé la reprise.
takeback-lapsed = La demande de reprise a expiré : personne n’a répondu avant un coup ou à temps.
error-not_in_rated = Une partie classée n’autorise aucune reprise de coup.
error-nothing_to_take_back = Vous n’avez joué aucun coup à reprendre.
error-takeback_pending = Une reprise est déjà demandée : attendez la réponse.
error-takeback_declined = La reprise de ce coup a été refusée : elle ne peut pas être redemandée.
error-no_takeback_asked = Aucune reprise n’attend votre réponse.

# Big Box: rules page and lessons

rules-examples-failed = Les exemples n’ont pas pu être chargés (statut { $status }).
rules-bb-title = La Big Box, élément par élément
rules-bb-intro = Ces règles jouent des extensions de la Big Box. Chaque élément ci-dessous a un petit plateau d’exemple, la dernière tuile posée entourée, avec ses points calculés.
rules-bb-switches = Éléments activés ou non
rules-bb-on = activé
rules-bb-off = désactivé dans ces règles
rules-ex-inn-title = Une auberge sur une route
rules-ex-inn = Le voleur d’Ann est sur une route de 4 tuiles bordée d’une auberge. Ann l’achève : une route achevée avec une auberge rapporte 2 points par tuile, 4 × 2 = 8 points (sans l’auberge : 4). Encore ouverte à la fin, elle n’aurait rien rapporté. Score final : Ann 8, Ben 0.
rules-ex-cathedral-title = Une cathédrale dans une ville
rules-ex-cathedral = Le chevalier d’Ann tient une ville de 5 tuiles avec une cathédrale et sans blason. Achevée, elle rapporte 3 points par tuile et par blason : 5 × 3 = 15 points. Score final : Ann 15, Ben 0.
rules-ex-cathedral-open-title = Une ville à cathédrale inachevée à la fin
rules-ex-cathedral-open = La même ville, encore ouverte quand la partie se termine : une ville inachevée avec une cathédrale ne rapporte rien, le chevalier d’Ann marque 0 point (sans la cathédrale, ses 4 tuiles auraient rapporté 4). Score final : Ann 0, Ben 0.
rules-ex-big-follower-title = Le grand partisan
rules-ex-big-follower = Le grand partisan d’Ann (dessiné plus grand) et le chevalier de Ben sont dans deux parties d’une ville ; la dernière tuile d’Ann les relie et la ferme : 4 tuiles et 2 blasons. Le grand partisan compte pour deux chevaliers : Ann a la majorité, 2 contre 1, et marque seule 2 × (4 + 2) = 12 points. Il ne rapporte pas plus qu’un chevalier. Score final : Ann 12, Ben 0.
rules-ex-goods-title = Les marchandises et la majorité de chaque sorte à la fin
rules-ex-goods = Ben achève la ville d’Ann de 3 tuiles, qui porte un symbole de vin : le chevalier d’Ann marque 3 × 2 = 6 points, et Ben, qui a posé la dernière tuile, prend le jeton de vin. À la fin, qui a le plus de jetons d’une sorte marque 10 points : Ben a 1 vin, Ann aucun, Ben marque donc 10. Score final : Ann 6, Ben 10.
rules-ex-builder-title = Le double tour du bâtisseur
rules-ex-builder = Le voleur d’Ann et son bâtisseur sont sur la route. Ann prolonge cette route, elle joue donc aussitôt une deuxième tuile (entourée) : elle achève la route de 6 tuiles, 6 points, et voleur et bâtisseur reviennent. Une deuxième tuile n’en donne jamais une troisième. Score final : Ann 6, Ben 0.
rules-ex-pig-title = Le cochon dans un pré
rules-ex-pig = Le paysan d’Ann, son cochon et le paysan de Ben partagent un pré qui borde une ville achevée. Un cochon n’est pas un paysan : 1 paysan chacun, tous deux ont la majorité. Ben marque 3 points pour la ville ; Ann, dont le propre cochon est dans le pré, en marque 4. Score final : Ann 4, Ben 3.
rules-ex-farm-rule = Cet exemple compte son pré comme les règles standard (chaque pré paie sa majorité) ; ces règles comptent les prés à leur façon (voir Prés plus haut), et le cochon ajoute 1 point à chaque ville qui paie son propriétaire.
learn-step-of = Étape { $n } sur { $total }
learn-next-step = Étape suivante
learn-goods-taken = jetons de marchandises de la ville achevée
learn-what-goods = le plus de marchandises d’une sorte
lesson-inns-cathedrals-title = Auberges et Cathédrales : les auberges et le grand partisan
lesson-inns-cathedrals-intro = Auberges et Cathédrales ajoute des auberges, des cathédrales et un grand partisan pour chacun. Votre voleur est sur la route qui va de l’abbaye à l’ouest du départ jusqu’à la tuile de Bea avec une auberge.
lesson-inns-cathedrals-goal = Achevez la route avec la tuile d’abbaye à l’est de l’auberge : 4 tuiles avec une auberge rapportent 2 chacune, 8 points.
lesson-inns-cathedrals-done = 8 points au lieu de 4 : l’auberge a doublé votre route. Encore ouverte à la fin, elle n’aurait rien rapporté.
lesson-inns-cathedrals-2-intro = Bea a mis son chevalier dans la ville au-dessus du départ. Votre grand partisan compte pour deux dans chaque majorité.
lesson-inns-cathedrals-2-goal = Posez la tuile de ville au-dessus de votre abbaye au bout est de la route, la ville tournée vers l’ouest, et mettez-y votre grand partisan.
lesson-inns-cathedrals-2-done = Votre grand partisan occupe une ville à lui, à côté de celle de Bea.
lesson-inns-cathedrals-3-intro = Une tuile peut relier les deux villes. Votre grand partisan et le chevalier de Bea seront alors dans la même ville.
lesson-inns-cathedrals-3-goal = Reliez et fermez les deux villes avec la tuile de ville entre elles : votre grand partisan bat le chevalier de Bea 2 contre 1, vous marquez donc seul 4 tuiles et un blason, 10 points.
lesson-inns-cathedrals-3-done = 10 points pour vous, aucun pour Bea : le grand partisan a gagné la majorité.
lesson-traders-builders-title = Marchands et Bâtisseurs : les marchandises et le bâtisseur
lesson-traders-builders-intro = Marchands et Bâtisseurs ajoute des marchandises, et pour chacun un bâtisseur et un cochon. Qui achève une ville prend un jeton de marchandise pour chaque symbole qu’elle porte, quel que soit son propriétaire. Le chevalier de Bea tient la ville de vin au-dessus du départ.
lesson-traders-builders-goal = Achevez la ville de vin de Bea avec la tuile de ville à l’est : Bea marque 6 points, et vous prenez le jeton de vin.
lesson-traders-builders-done = Bea a marqué 6, mais le vin est à vous. À la fin, le plus de jetons de chaque sorte rapporte 10 points.
lesson-traders-builders-2-intro = Votre voleur est sur la route à l’est du départ. Un bâtisseur peut rejoindre une route ou une ville où se trouve l’un de vos partisans.
lesson-traders-builders-2-goal = Prolongez votre route d’une tuile vers l’est et mettez-y votre bâtisseur.
lesson-traders-builders-2-done = Votre bâtisseur est sur la route de votre voleur.
lesson-traders-builders-3-intro = Chaque fois que vous prolongez la route ou la ville de votre bâtisseur, vous jouez aussitôt une deuxième tuile.
lesson-traders-builders-3-goal = Prolongez encore la route vers l’est, et vous rejouez.
lesson-traders-builders-3-done = Un double tour : vous jouez maintenant une deuxième tuile.
lesson-traders-builders-4-intro = Voici la tuile en plus de votre bâtisseur. C’est la dernière tuile de la partie.
lesson-traders-builders-4-goal = Achevez la route avec la tuile d’abbaye : 6 tuiles, 6 points. Puis la partie se termine, et votre jeton de vin est le plus de vin : 10 points de plus.
lesson-traders-builders-4-done = 6 points pour la route et 10 pour le vin : les marchandises et le bâtisseur ont payé.

# Big Box: ratings and lobby
rating-family-base = Jeu de base
rating-family-big-box = Big Box
rating-pool-duel = jeu de base, deux joueurs
rating-pool-multi = jeu de base, trois à six joueurs
rating-pool-big-box-duel = Big Box, deux joueurs
rating-pool-big-box-multi = Big Box, trois à six joueurs
profile-pool-big-box-duel = Big Box, deux joueurs (Glicko-2)
profile-pool-big-box-multi = Big Box, trois à six joueurs (Weng-Lin)
profile-game-pool = classée : { $pool }
leaderboard-family = Jeu de règles
leaderboard-family-about = Chaque jeu de règles a ses propres classements : le jeu de base (règles standard, débutant et première édition) et la Big Box.
lobby-preset-big-box = Big Box
lobby-pn-rules = Règles
lobby-pn-rules-base = Standard
lobby-pn-rules-big-box = Big Box
lobby-table-rules = Règles : { $preset }
results-ratings-pool = Groupe de classement : { $pool }

# Big Box: game page (game.js, panels.js): the big follower, the builder, the pig, goods.
preset-big-box-title = La grande boîte
kind-goods = Marchandises
role-big = grand partisan ({ $role })
figure-big = grand partisan
figure-builder = bâtisseur
figure-pig = cochon
figure-home = { $figure } en réserve
figure-away = { $figure } sur le plateau
goods-held = marchandises : { $wine } vin, { $wheat } blé, { $cloth } tissu
goods-count = { $n } { $good ->
        [wine] vin
        [wheat] blé
       *[cloth] tissu
    }
scored-with-inn = avec une auberge
scored-with-cathedral = avec une cathédrale
scored-with-pig = { $n ->
        [one] { $n } ville avec le cochon
       *[other] { $n } villes avec le cochon
    }
scored-goods-taken = marchandises prises : { $goods }
scored-goods-final = le plus de { $good ->
        [wine] vin
        [wheat] blé
       *[cloth] tissu
    } ({ $n })
builder-bonus = Bâtisseur : { $name } pose une deuxième tuile
builder-bonus-you = Bâtisseur : vous posez une deuxième tuile
spot-picker-figures = Pion et emplacement
results-goods = Majorités de marchandises
results-goods-won = { $good ->
        [wine] Vin
        [wheat] Blé
       *[cloth] Tissu
    } : { $names } +{ $points } ({ $count })
results-goods-none = { $good ->
        [wine] Vin
        [wheat] Blé
       *[cloth] Tissu
    } : personne n’en a pris
rules-expansions = Avec { $list }.
expansion-inns_cathedrals = Auberges et Cathédrales
expansion-traders_builders = Marchands et Bâtisseurs
