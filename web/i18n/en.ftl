# The interface's words in English. The same keys are in de.ftl and fr.ftl
# (crates/server/tests/i18n.rs checks it). docs/web.md, "Languages", says how
# to add one.

## The page

app-title = Carcassonne
app-description = Carcassonne, the tile-laying game: play hot-seat, against bots or with friends online.
nav-label = Main
nav-new-game = New game
nav-games = Games
nav-learn = Learn
nav-sign-in = Sign in
loading-tiles = Loading the tiles…
lang-select-label = Language
boot-unreachable = The game server cannot be reached
replay-of-game = Replay of game { $id }
replay-file-refused = This record cannot be replayed: { $reason }
toasts-label = Messages
link-copied = Link copied
copy-by-hand = Select the link and copy it
just-now = just now
minutes-ago = { $n } min ago
hours-ago = { $n } h ago
something-wrong = something went wrong

## Errors, by the server's stable codes

error-unknown = Something went wrong.
error-network = The server cannot be reached.
error-not_found = Not found.
error-bad_request = The request is not well formed.
error-unauthorized = This link does not seat you at this game.
error-not_your_turn = It is not your turn.
error-stale_version = The game has moved on: reload it.
error-game_over = The game is over.
error-not_finished = A review is made of a finished game: this one is still in play.
error-illegal_move = The rules do not allow that move.
error-too_large = The request is too large.
error-rate_limited = Too many requests: wait a moment and try again.
error-hidden_information = The record of a game with hidden hands can be downloaded once the game is over.
error-storage_error = The game could not be saved; nothing was changed.
error-unsupported_media_type = Send JSON with the header content-type: application/json.
error-forbidden_origin = This server does not accept connections from pages of that site.
error-too_many_connections = No room for another connection: try again later.
error-quota_exceeded = This server allows no more new games from you for now.
error-later_rules_code = These rules were made with a later version of the game than this server runs: ask whoever shared them which version they play.
error-bad_rules_code = This link does not hold a rule set this server can read.
error-busy = The server is busy: try again in a moment.
error-too_many_tokens = A request names too many seat tokens.
error-name_taken = That name is taken (or one that looks the same): choose another.
error-bad_credentials = Wrong name or password.
error-not_signed_in = Sign in first.
error-too_many_attempts = Too many attempts: try again later.

## Rule options (the engine's RULE_OPTIONS: each key is its `key`)

rule-value-on = on
rule-value-off = off
rule-value-no-limit = no limit
rule-farms = Farm scoring
    .about = How farmers score at the end of the game.
rule-farms-per-farm = 3 per city, per farm
rule-farms-per-farm-once = 3 per city, once per player
rule-farms-per-city = 4 per city, majority over all its farms
rule-farms-off = no farmers
rule-small_city = Small cities: a completed 2-tile city scores 2
    .about = A completed city of two tiles scores 1 per tile and shield instead of 2.
rule-river = The River: the game starts with the 12 river tiles
    .about = The 12 river tiles replace the start tile and are laid first.
rule-abbot = The Abbot: an abbot for each player, gardens score
    .about = Each player gets an abbot for cloisters and gardens, which may be recalled.
rule-hand = Tiles in hand (1 = the usual single draw)
    .about = How many tiles each player holds and chooses from.
rule-hand_visible = Hands are shown to everyone
    .about = Tiles held in hand are shown to every player, not only their owner.
rule-draw_at_turn_end = Draw your next tile at the end of your turn
    .about = You take your next tile at the end of your turn and see it while the others play.
rule-unplaceable = A tile that fits nowhere
    .about = What happens to a drawn tile that fits nowhere.
rule-unplaceable-discard = is discarded
rule-unplaceable-reshuffle = goes back into the bag
rule-hole_bonus_turn = Filling a hole (four neighbours) earns another turn
    .about = A tile laid with neighbours on all four sides earns another turn.
rule-incomplete_scoring = Incomplete features score at the end
    .about = Whether unfinished roads, cities, cloisters and gardens score at the end.
rule-board_limit = Table size
    .about = Every tile must lie within a W × H rectangle centred on the start tile.
rule-border_completes = The table's edge closes roads and cities (with a table size)
    .about = With a table size: roads and cities reaching the table's edge count as closed there.
rule-first_player = First player
    .about = Who plays first: the first seat, or a player chosen at random.
rule-first_player-seat0 = the first seat
rule-first_player-random = chosen at random
