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
