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
rules-page-title = Les règles : { $title }
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
