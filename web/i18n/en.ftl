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
rule-inns_cathedrals = Inns & Cathedrals: inns, cathedrals and a big follower each
    .about = Adds the 18 tiles of Inns & Cathedrals: inns double a finished road, cathedrals triple a finished city, and each player has a big follower.
rule-traders_builders = Traders & Builders: goods, a builder and a pig each
    .about = Adds the 24 tiles of Traders & Builders: finishing a city with goods earns its tokens, and each player has a builder and a pig.
rule-big_follower = Big followers (Inns & Cathedrals)
    .about = Each player's big follower counts as two followers in every majority.
rule-inns = Inns (Inns & Cathedrals)
    .about = A finished road with an inn scores 2 a tile; an unfinished one nothing.
rule-cathedrals = Cathedrals (Inns & Cathedrals)
    .about = A finished city with a cathedral scores 3 a tile and shield; an unfinished one nothing.
rule-builder = Builders (Traders & Builders)
    .about = A builder beside your follower gives you a second tile whenever you extend its road or city.
rule-pig = Pigs (Traders & Builders)
    .about = A pig beside your farmer makes each finished city pay you 1 more through that farm.
rule-goods = Goods (Traders & Builders)
    .about = Finishing a city earns its goods tokens; the most of each kind scores 10 at the end.

## Shared words

loading = Loading…
cancel = Cancel
close = Close
color-yellow = yellow
color-red = red
color-green = green
color-blue = blue
color-black = black
color-pink = pink
bot-level-random = random
    .about = random legal moves
bot-level-easy = easy
    .about = a quick search (300 playouts a move)
bot-level-normal = normal
    .about = a real search (3,000 playouts a move)
bot-level-hard = hard
    .about = a second of search a move

## Home and new game

seat-you = You
home-rules-prefilled = The form holds those rules: pick the players and start
home-rules-unreadable = Those rules cannot be read: { $reason }
home-tagline = Lay tiles, build cities, roads and cloisters, and place your followers to score.
home-new-game = New game
home-add-player = + Add a player
home-rules = Rules
home-share-rules = Share these rules
home-public = List this game for everyone to watch
home-start = Start game
home-your-games = Your games
home-public-games = Games to watch
home-open-record = Open a record…
home-saved-rules = Saved rules
home-options = Options
home-saved-none = Your table’s house rules, kept here: build them in the form, then “Share these rules” and save them.
home-saved-start = Start a game
home-saved-rename = Rename
home-saved-delete = Delete
home-saved-delete-named = Delete { $name }
home-saved-delete-confirm = Delete the saved rules “{ $name }”?
home-saved-new-name = New name for { $name }
home-no-games = No games yet: start one!
seat-player = Player { $n }
seat-name-label = Name of player { $n }
seat-person = Person
seat-bot = Bot
seat-bot-name = bot name (optional)
seat-friend-name = friend’s name
seat-bot-level = Bot level
seat-where = Where player { $n } plays
seat-where-help = Here: at this screen (take turns). Invite: a friend plays on their own device with a link.
seat-here = Here (this screen)
seat-invite = Invite a friend (link)
seat-remove = Remove
game-row-bot = bot
game-row-aborted = aborted: nobody moved
game-row-finished = finished · { $turns } turns
game-row-turn = turn { $n }
game-row-to-play = { $name } to play
game-row-replay = Replay
game-row-download = Download the record
game-row-view = View
game-row-continue = Continue
game-row-watch = Watch
how-title = How to play
how-place = Place the tile.
how-place-fits = Highlighted cells show where it fits;
how-place-kbd = press R (or click the tile) to turn it
how-place-touch = tap your tile to turn it
how-place-edges = Edges must match: city to city, road to road, field to field.
how-deploy = Deploy a follower
how-deploy-or-not = — or not.
how-deploy-kbd = Click a circle on the new tile
how-deploy-touch = Tap a circle on the new tile, or pick a spot under it
how-deploy-where = a knight in a city, a thief on a road, a monk in a cloister, a farmer lying in a field. The feature must be free.
how-confirm = Confirm
how-confirm-kbd = with Enter; Esc takes back what you chose
how-confirm-touch = ; Undo takes back what you chose
how-confirm-scores = Completed roads, cities and cloisters score at once and your followers come home.
how-keyboard = By keyboard:
how-keyboard-keys = the arrow keys move your tile between the cells where it fits, R and Shift+R turn it, F (or 1–9) picks a follower's spot.
how-end = At the end, unfinished features score less, and farmers score the completed cities next to their fields.

## Rules page and presets

rules-loading = Loading the rules…
rules-unreadable = These rules cannot be read
rules-unreadable-hint = Check that the whole link was copied, or ask for it again.
back-to-start = Back to the start page
rules-none-changed = None: the { $preset } rules as they are.
rules-page-title = The rules: { $preset }{ $n ->
        [0] {""}
        [one] {" "}+ { $n } option
       *[other] {" "}+ { $n } options
    }
rules-cli = For the command line (carcassonne play --rules …):
rules-start = Start a game with these rules
rules-share-or-save = Share or save
rules-in-force = House rules and options in force
rules-share = Share these rules
rules-share-hint = Friends open the link or scan the code to read them at the table.
rules-qr-alt = QR code of the link to these rules
rules-qr-none = No QR code: copy the link instead
rules-link = Link
copy-link = Copy link
rules-save-as = Save them on this server as
rules-default-name = Our table’s rules
save = Save
rules-every-option = Every option and what it does
rules-saved = Saved as “{ $name }”: find them on the start page
rules-section-setup = Setup
rules-section-a-turn = A turn
rules-section-roads = Roads
rules-section-cities = Cities
rules-section-cloisters = Cloisters
rules-section-farms = Farms
rules-section-end-of-the-game = End of the game
preset-standard = standard
preset-beginner = beginner
preset-first-edition = first edition
preset-big-box = Big Box
preset-standard-title = Today's rules
preset-beginner-title = A gentle first game
preset-first-edition-title = The 2000 rules
headline-farms-per-farm = farmers score 3 per completed city
headline-farms-per-farm-once = farmers score 3 per completed city, each city once per player
headline-farms-per-city = farmers score 4 per completed city, to the most farmers over all its farms
headline-farms-off = no farmers
rules-title = Rules: { $preset }{ $n ->
        [0] {""}
        [one] {" "}+ { $n } option
       *[other] {" "}+ { $n } options
    }
headline = { $title }{ $changed ->
        [yes] , with house rules
       *[no] {""}
    }: { $farms }{ $small ->
        [yes] ; small cities score 2
       *[no] {""}
    }.

## Colours (theme switch)

theme-system = as the system
theme-light = light
theme-dark = dark
theme-word-system = auto
theme-word-light = light
theme-word-dark = dark
theme-title = Colours: { $now } (click for { $next })
theme-label = { $word } colours ({ $now }): switch to { $next }

## Accounts

account-sign-out = Sign out
account-create-title = Create an account
account-why = An account keeps your name yours. You can play without one, as a guest.
account-none = No account?
account-create-one = Create one
account-or-guest = , or play as a guest.
account-name = Name
account-password = Password
account-password-min = At least 8 characters.
account-create = Create account
account-have-one = Have an account?
account-welcome = Welcome, { $name }
account-recovery = Your recovery code sets a new password if you forget yours. It is shown only now: write it down or keep it in your password manager.
done = Done

## The game screen

game-board-help = On your turn: the arrow keys move your tile between the cells where it fits, R and Shift+R turn it, F and Shift+F step through the spots for a follower, Enter lays it, Escape takes back; H asks for a hint in a game against bots or at one screen.
game-watching = Watching
game-watching-help = You hold no seat in this game: you see every move as it is played
game-drawer = Menu: log, tiles left, links and ending the game
game-players = Players
game-your-move = Your move
game-menu-title = Menu
game-back-to-board = Back to the board
game-log = Game log
setting-confirm-moves = Confirm each move
setting-confirm-moves-help = On, a move is played only by Confirm; off, picking a follower's spot (or None) plays it at once. This device remembers it.
game-sound-on = A sound when it is your turn: on (click to switch off)
game-sound-off = A sound when it is your turn: off (click to switch on)
invite-qr-larger = Show the QR code larger
invite-qr-alt = QR code: { $label }
invite-title = Invite your friends
invite-links = Invite links
invite-help = Send each friend their own link or let them scan it: whoever opens it plays that seat.
invite-seat = seat { $n }
invite-not-joined = not joined yet
invite-here = is here
invite-left = left (the link still works)
invite-anyone = Anyone
invite-can-watch = can watch
invite-local = { $host } links open only on this computer: serve on the network address and open this page at the computer’s network address, e.g. with
invite-scan-to-play = { $name }: scan to play
invite-scan-to-watch = Scan to watch the game
invite-waiting-for = waiting for { $names }
invite-names-left = { $names } left (the link still works)
invite-everyone-here = everyone is here
qr-code = QR code
game-no-seat = This link holds no seat in this game (any more): you are watching.
game-not-found = No such game
game-not-found-text = The game { $id } is not on this server.
game-start-new = Start a new game
game-too-fast = Too fast: wait a moment and try again
game-illegal = That move is not allowed: { $reason }
title-your-turn = ● Your turn — Carcassonne
title-game-over = Game over — Carcassonne
title-watching = Watching — Carcassonne
banner-you-win = Game over — you win!
banner-aborted = Game aborted: a clock ran out before anyone moved.
banner-game-over = Game over — { $winners }!
banner-see-results = See the results
banner-placing = Placing…
banner-named-turn = { $name }, your turn
banner-your-turn = Your turn
banner-tap-cell = { $who }: tap a lit cell
banner-place = { $who }: place the tile — { $r } rotates
banner-pick-spot-touch = { $who }: pick a spot, or tap the tile again to lay it
banner-pick-spot = { $who }: choose a spot for a follower, or confirm with { $enter }
banner-lay-touch = { $who }: tap the tile again or Confirm to lay it
banner-lay = { $who }: confirm with { $enter }
key-enter = Enter
key-esc = Esc
banner-thinking = { $name } is thinking
banner-waiting-join = Waiting for { $name } to join
banner-waiting-offline = Waiting for { $name } (offline)
banner-waiting = Waiting for { $name }
game-aborted = Game aborted
game-aborted-why = A clock ran out before anyone moved: the game ends unplayed, and counts for nobody.
game-over = Game over
game-all-placed = All tiles are placed.
game-ended-early = The game ended before its last tile: the scores as they stood count.
results = Results
info-no-follower-left = You have no follower left for this tile: confirm to lay it.
info-no-follower-fits = No follower can go on this tile.
info-off-view = { $n } more at the edges or off screen: drag the board, or ⤢ shows it all.
info-no-fit = Doesn't fit this way
info-tap-turn = Tap the tile to turn it.
info-press-r = Press { $r }.
hand-choose = Choose a tile:
hand-yours = Your tiles:
hand-yours-many = Your hands:
confirm = Confirm
confirm-no-follower = Confirm — no follower
confirm-recall = Confirm — recall abbot
confirm-abbot = Confirm — abbot
confirm-role = Confirm — { $role }
role-knight = knight
role-thief = thief
role-monk = monk
role-farmer = farmer
role-abbot = abbot
role-follower = follower
role-builder = builder
role-pig = pig
recall-abbot = Recall abbot
spot-picker = Follower
spot-none = None
tile-yours = Your tile
tile-of = { $name }'s tile
tile-turn-bag = turn { $turn } · { $left } left in the bag
turn-left = Turn left
turn-right = Turn right
tap-to-turn = Tap to turn
click-to-turn = Click to turn (R)
tile-yours-turn = Your tile, { $tile }: turn it
tile-hidden = a hidden tile
tile-thinking = { $name } is thinking…
tile-to-play = { $name } is to play.
undo = Undo
bag-hide = Hide remaining tiles
bag-show = Show remaining tiles
download-record = Download record
all-games = All games
you-are-watching = you are watching
results-you-win = You win!
results-tie = A tie: { $winners }!
results-winner = { $winners }!
results-final = Final scores
results-after = Final scores after { $n } turns
results-one-by-one = The final scoring, one by one (choose one to see why on the board)
results-chart = Score over the game
results-look = Look at the board
results-review = Review the game
results-review-help = What the search would have played instead, move by move
only-one-way = Only one way fits here
info-deploy = Click a circle or press F to deploy a follower ({ $n ->
        [one] { $n } spot
       *[other] { $n } spots
    }), or confirm without one.
info-deploy-quick = Click a circle to play with a follower there ({ $n ->
        [one] { $n } spot
       *[other] { $n } spots
    }), or confirm without one.
info-deploy-touch-quick = Pick a spot below to play with a follower there ({ $n ->
        [one] { $n } spot
       *[other] { $n } spots
    }), or None to play without one.
info-deploy-touch = Pick a spot below to deploy a follower ({ $n ->
        [one] { $n } spot
       *[other] { $n } spots
    }), or confirm without one.
info-fits = Fits in { $b } { $n ->
        [one] place
       *[other] places
    } this way.
info-fits-of = Fits in { $b } { $n ->
        [one] place
       *[other] places
    } this way ({ $all } cells in all).
info-fits-turned = it fits in { $n ->
        [one] { $n } cell
       *[other] { $n } cells
    } turned.
bag-left = { $b } { $n ->
        [one] tile
       *[other] tiles
    } left in the bag

## Players, log and results

kind-roads = Roads
kind-cities = Cities
kind-cloisters = Cloisters
kind-farms = Farms
kind-gardens = Gardens
kind-recalls = Abbot recalls
score-laps = { $n }+ on the score track
score-track = { $n } on the track
abbot-in-supply = abbot in supply
abbot-on-board = abbot on the board
tiles-in-hand = tiles in hand
tag-bot-title = computer player
tag-you = you
player-rating-title = Rating (rated game)
online = online
offline = offline
status-thinking = thinking
status-to-play = to play
status-winner = winner
supply = { $n } of { $all } followers in supply
at-the-end = at the end
scored-cloister = cloister
scored-garden = garden
abbot-recalled = abbot recalled
show-why = Show why on the board
final-scoring = Final scoring
log-discarded = this tile fit nowhere and was discarded
log-reshuffled = this tile fit nowhere and went back into the bag
log-bonus = { $name } filled a hole and plays again
log-empty = The game begins: the start tile lies in the middle.
remaining-title = { $tile }: { $n } of { $all } left
plus-at-the-end = { $d } + { $f } at the end
total = Total
chart-label = Scores over the game: { $scores }
tiles-in-hand-n = { $n ->
        [one] { $n } tile in hand
       *[other] { $n } tiles in hand
    }
win-text = { $names } { $n ->
        [one] wins
       *[other] win
    }
scored-road = road of { $n ->
        [one] { $n } tile
       *[other] { $n } tiles
    }
scored-city = city of { $n ->
        [one] { $n } tile
       *[other] { $n } tiles
    }{ $shields ->
        [0] {""}
        [one] , { $shields } shield
       *[other] , { $shields } shields
    }
scored-farm = farm, { $n ->
        [one] { $n } completed city
       *[other] { $n } completed cities
    }

## Connection

move-not-sent = The move was not sent: try again in a moment
back-online = Back online.
offline-note = You are offline. The game reconnects when the network is back.
connection-lost = Connection lost. Reconnecting…

## Board, tiles and what screen readers hear

board = The board
zoom-in = Zoom in
zoom-out = Zoom out
zoom-fit = Show the whole board
# Lists of words, as the language writes them (the CLDR's list patterns): two words, and the last of three or more
# (the others are joined by a comma).
list-two = { $first } and { $last }
list-end = { $rest }, and { $last }
tile-words-unknown = tile { $id }
tile-words-fields = a tile of fields
tile-words = a tile with { $list }
tile-part-cloister = a cloister
tile-part-garden = a garden
tile-part-river = the river
tile-part-inn = an inn
tile-part-cathedral = a cathedral
tile-part-goods = { $goods ->
        [wine] a barrel of wine
        [wheat] a sheaf of wheat
       *[cloth] a bolt of cloth
    }
place-start = the start
place-far = { $parts } of the start
spot-cloister = { $role } in the cloister
spot-garden = { $role } in the garden
dir-north = north
dir-south = south
dir-east = east
dir-west = west
dir-north-east = north-east
dir-north-west = north-west
dir-south-east = south-east
dir-south-west = south-west
said-laid = { $name } laid { $tile } { $place }
said-laid-start = { $name } laid { $tile } on the start
said-with = , with a { $role }
said-scored = { $names } +{ $points }, { $what }
# Goods taken with a city: no points, the words say what.
said-took = { $names }, { $what }
said-recalled = { $names } recalled the abbot, +{ $points }
said-discarded = { $tile } fit nowhere and was discarded
said-reshuffled = { $tile } fit nowhere and went back into the bag
said-bonus = { $name } filled a hole and plays again
said-end = Game over: { $winners }
said-other-arrow = Try another arrow key.
said-no-spot = No spot for a follower.
said-no-spot-here = No spot for a follower here.
said-no-follower = No follower.
said-move-first = Move the tile with the arrow keys first.
tile-part-city = { $n ->
        [one] a city
       *[other] { $n } cities
    }{ $shield ->
        [yes] {" "}with a shield
       *[no] {""}
    }
tile-part-road = { $n ->
        [one] a road
       *[other] { $n } roads
    }
place-next = { $dir ->
        [east] east
        [west] west
        [south] south
       *[north] north
    } of the start
place-steps = { $n } { $dir ->
        [east] east
        [west] west
        [south] south
       *[north] north
    }
spot-city = { $role } in the { $where ->
        [none] city
       *[other] { $where } city
    }
spot-road = { $role } on the { $where ->
        [none] road
       *[other] { $where } road
    }
spot-field = { $role } on the { $where ->
        [none] field
       *[other] { $where } field
    }
spot-tile = { $role } on the { $where ->
        [none] tile
       *[other] { $where } tile
    }
said-your-turn = Your turn: { $tile }; it fits in { $n ->
        [one] { $n } cell
       *[other] { $n } cells
    }.
board-label = The board: { $n ->
        [one] { $n } tile
       *[other] { $n } tiles
    } laid
board-label-mine = The board: { $n ->
        [one] { $n } tile
       *[other] { $n } tiles
    } laid; your tile, { $tile }, fits in { $cells } cells
said-no-cell = No cell further { $dir ->
        [east] east
        [west] west
        [south] south
       *[north] north
    }.
said-placed = { $place }, turned { $deg }°{ $ways ->
        [0] {""}
        [1] {""}
       *[other] {" "}(fits { $ways } ways)
    }.
said-spots = { $n ->
        [one] { $n } spot
       *[other] { $n } spots
    } for a follower: { $spots }.

## Chart

chart-axis-turn = turn

## The rules page in words (formatted by the server, crates/server/src/i18n.rs rules_summary)

rs-setup-river = The spring starts the table; the other 11 river tiles are drawn first (the lake last of them), then the 71 land tiles.
rs-setup-start = The start tile lies face up in the middle of the table; the other 71 tiles are shuffled face down.
rs-followers-abbot = Each player has 7 followers and an abbot.
rs-followers = Each player has 7 followers.
rs-draw-first = Each player draws their first tile before play begins.
rs-table = The table is { $w } by { $h } tiles, centred on the start tile: no tile may lie outside it.
rs-first-seat = The first seat plays first.
rs-first-random = The first player is chosen at random.
rs-turn-hand = Choose one of your { $n } tiles and lay it touching the table, every shared edge matching: city to city, road to road, field to field.
rs-turn-draw-end = Lay the tile you drew at the end of your last turn touching the table, every shared edge matching: city to city, road to road, field to field.
rs-turn-draw = Draw a tile and lay it touching the table, every shared edge matching: city to city, road to road, field to field.
rs-unplaceable-discard = A tile that fits nowhere leaves the game, and another is drawn.
rs-unplaceable-reshuffle = A tile that fits nowhere goes back into the bag, and another is drawn.
rs-follower-farmers = Then you may put one follower on a road, city, cloister or field of that tile, if no follower stands on that whole feature yet.
rs-follower-no-farmers = Then you may put one follower on a road, city or cloister of that tile, if no follower stands on that whole feature yet. Fields take no followers.
rs-abbot = Or put your abbot on its cloister or garden; or, instead of placing anything, take your abbot back, scoring 1 + the tiles around it.
rs-complete = Roads, cities and cloisters your tile completes score at once, and their followers come home.
rs-hole = A tile laid with neighbours on all four sides fills a hole and earns you another turn.
rs-draw-back = Draw back up to { $n } tiles at the end of your turn.
rs-draw-next = Draw your next tile at the end of your turn: you see it while the others play.
rs-road-score = It scores 1 point per tile to the player with the most thieves on it; tied players each score in full.
rs-city-score = It scores 2 points per tile and 2 per shield to the player with the most knights in it; tied players each score in full.
rs-small-city = Small cities: a completed city of just 2 tiles scores 1 per tile and per shield instead.
rs-cloister = A cloister is complete when the 8 tiles around it are laid: 9 points to its monk.
rs-gardens = Gardens score just like cloisters, but only an abbot may stand on one.
rs-farm-what = A farm is a stretch of field, bounded by roads, cities, the river and the table's edge. Farmers stay until the end.
rs-farm-end = At the end: { $summary }
rs-no-farmers = No farmers are played: fields never score.
rs-farms-summary-per-farm = each farm pays its farmers' majority 3 points per completed city it borders.
rs-farms-summary-per-farm-once = 3 points per completed city, each city paying each player at most once (2001 rules).
rs-farms-summary-per-city = each completed city pays 4 points to the most farmers over all farms bordering it (2000 rules).
rs-farms-summary-off = no farmers are played.
rs-farms-example-per-farm = Example: a farm borders two completed cities and one unfinished city. Ada has two farmers on it, Bob one. Ada scores 2 × 3 = 6, Bob nothing; the unfinished city pays no one. If Bob also holds another farm that borders one of those cities, that city pays him 3 as well.
rs-farms-example-per-farm-once = Example: Ada holds the most farmers on two farms, and both border the same completed city. That city pays her 3 once, not 3 for each farm. A second completed city bordering one of the farms pays her another 3.
rs-farms-example-per-city = Example: a completed city borders two farms. Ada has one farmer on the first; Bob has one on each. Counted over both farms, Bob has 2 farmers to Ada's 1, so the city pays Bob 4 and Ada nothing. With a tie, both would score 4.
rs-farms-example-off = Example: a field next to three completed cities is worth nothing to anyone: followers cannot be laid in fields.
rs-end-hand = The game ends when the bag and every hand are empty.
rs-end-last = The game ends after the last tile is laid.
rs-incomplete-none = Unfinished roads, cities, cloisters and gardens score nothing.
rs-farms-then = Then the farms score, as above.
rs-winner = The highest total wins; tied players share the victory.
rs-hand = Each player draws a hand of { $n } tiles, { $shown ->
        [yes] shown to everyone
       *[no] seen only by their owner
    }.
rs-road-complete = A road is complete when both ends stop at a crossing, a city or a cloister, or it closes a loop{ $edge ->
        [yes] , or reaches the table's edge
       *[no] {""}
    }.
rs-city-complete = A city is complete when its walls close all round{ $edge ->
        [yes] , or reaches the table's edge
       *[no] {""}
    }.
rs-incomplete = Unfinished roads then score 1 per tile, unfinished cities 1 per tile and per shield, unfinished cloisters{ $gardens ->
        [yes] {" "}and gardens
       *[no] {""}
    } 1 + the tiles around them.

## Top bar on narrow phones

nav-new-game-short = New game
nav-games-short = Games
nav-learn-short = Learn
nav-sign-in-short = Sign in

## Replay

replay-first = Start
replay-back = Back
replay-play = Play
replay-forward = Forward
replay-end = End
replay-turn = Turn
replay-finished = finished game
replay-unfinished = unfinished game
replay-back-to-game = Back to the game
replay-log = Log
replay-scores = Scores
replay-start-tile = The start tile
replay-banner = Turn { $k }: { $name } { $you ->
        [yes] place
       *[no] places
    } { $tile }{ $deploy }{ $done }
replay-with = {" "}with a { $role }
replay-final = {" "}— final scoring

## Hints
hint = Hint
hint-title = The search's best move, drawn on the board
hint-thinking = Thinking…
hint-close = Close the hint
hint-none-online = No hints in a game played online with other people.
outnumbered = ({ $who } outnumbered)

## Errors (hints)
error-no_hints = No hints in a rated game or one played online with other people.

## Ratings
account-profile = Your profile
home-rated = Rated game (between people only, never against a bot; signed in; a preset's rules; invited players sign in to take their seats)
error-not_ratable = This game cannot be rated.
game-rated = Rated
results-ratings = Ratings
results-ratings-pending = The ratings are being updated…

## Passkeys
account-of = Account of { $name }
account-passkey-also = You can also sign in without your password:
account-add-passkey = add a passkey
error-passkeys_unavailable = Passkeys do not work on this address of the server.
error-challenge_expired = That took too long: try again.
error-passkey_refused = This passkey was not accepted.

## Account page and recovery
settings-title = Your account
settings-signed-out = You are not signed in.
settings-signed-in-as = Signed in as { $name }.
settings-password-title = Password
settings-current-password = Current password
settings-new-password = New password
settings-password-others = Your other devices are signed out when it changes.
settings-password-change = Change password
settings-password-changed = Password changed. Your other devices are signed out.
settings-sessions-title = Devices
settings-sessions-text = Signed in on a device you no longer have? Sign out everywhere, this device too.
settings-sign-out-everywhere = Sign out everywhere
settings-delete-title = Delete your account
settings-delete-text = This deletes your account, ratings, profile and passkeys for good. Games already played keep their moves; lists show "deleted player".
settings-delete-password = Your password, to confirm
settings-delete-button = Delete my account
settings-deleted-title = Your account is deleted
settings-deleted-text = You can still play as a guest.
recover-forgot = Forgot your password?
recover-title = Set a new password
recover-why = With the recovery code you were shown when you created the account. Every device signed in to it is signed out.
recover-code = Recovery code
recover-submit = Set the new password
recover-done = Welcome back, { $name }
recover-next-code = Your password is changed. The code you used is spent: here is your new recovery code, shown only now. Write it down or keep it in your password manager.
lobby-signed-in-name = Signed in: you play as { $name }.
# Push notifications (written by the server in the subscription's language: services/push.rs)
push-turn-title = Your turn
push-turn-body = Your turn in game { $game } ({ $name } against { $others })
push-invite-title = Your invite was taken
push-invite-body = { $name }'s seat in game { $game } was taken

## Chat and rematch
home-chat-off = No chat in this game
error-chat_off = Chat is off in this game.
error-empty_message = The message is empty.
error-message_too_long = The message is too long.
error-chat_too_fast = Too many messages: wait a moment.
error-chat_full = This game's players' chat is full.
error-chat_crowded = So many spectators wrote in this game's chat that only regulars may join them now: an account at least a day old with a rated game played to the end.
error-chat_not_agreed = The chat is downloaded only when every player agreed to it.
error-game_not_over = The game is not over yet.
error-already_accepted = You accepted the rematch already.

## Notifications
error-bad_subscription = This browser's notification subscription was refused.
error-too_many_subscriptions = This browser, this seat or your address already has too many notifications kept (an account a day old with a rated game played has a share of its own).

## Clocks
error-bad_clock = This time control is not one the server offers.
error-time_up = Your time ran out: the others may hand your seat to a bot.
error-not_away = That seat still has time, or its player has not been away long enough.
error-cannot_abort = The game can no longer be aborted: every player has moved.
error-cannot_end = The game cannot be ended here: no seat has just run out of time.

## Lobby
nav-lobby = Lobby
nav-lobby-short = Lobby
nav-watch = Watch
nav-watch-short = Watch
watch-title = Games to watch
watch-page-title = Games to watch — Carcassonne
watch-about = Public games in play, the highest rated players' first, with each player's rating. Lobby and Play now games are here too.
watch-none = No public game is in play right now.
home-watch-all = All games to watch
lobby-watch = Games in play, to watch
home-lobby-link = Play people online: the lobby

## Errors (lobby)
error-already_paired = You are paired already: your game is starting.
error-already_seated = You already sit at this table.
error-too_many_seats = You hold four seats at open tables already: leave one first.
error-already_waiting = You are waiting already: in another tab or window, on another device, or someone at your address is.
error-name_taken_here = Someone at this table has that name already.
error-needs_socket = The lobby needs its live connection: reload the page.
error-not_host = Only the table's host can do that.
error-rated_needs_preset = A rated table plays a preset without house rules.
error-seat_taken = That seat is taken.
error-table_started = This table has started.
error-needs_history = This table is for regulars: an account at least a day old with a rated game played to the end.
error-too_few_players = A game needs two players at least.

## Clocks and your turn
clock-days-left = { $n ->
        [one] { $n } day left
       *[other] { $n } days left
    }
clock-hours-left = { $n ->
        [one] { $n } hour left
       *[other] { $n } hours left
    }
clock-minutes-left = { $n ->
        [one] { $n } minute left
       *[other] { $n } minutes left
    }
clock-under-a-minute = less than a minute left
clock-out = out of time
clock-minutes = { $n ->
        [one] { $n } minute
       *[other] { $n } minutes
    }
clock-seconds = { $n ->
        [one] { $n } second
       *[other] { $n } seconds
    }
clock-seat = Seat { $n }
clock-aborted = { $name } ran out of time before anyone moved: the game is aborted
clock-ran-out = { $name } ran out of time
clock-bot-plays = A { $level } bot plays for { $name }
clock-bot-plays-by = A { $level } bot plays for { $name } ({ $by }'s choice)
clock-back = { $name } is back and plays again
clock-log-move = Move { $n }
clock-panel = Clocks
clock-standin = bot ({ $level }) plays
clock-left = { $time } left
clock-left-running = { $time } left, running
clock-low = { $time } left on your clock.
clock-handover-out = { $name } ran out of time and moves no more. Hand their seat to a bot to play on?
clock-handover-away = { $name } has been away for { $n ->
        [one] { $n } minute
       *[other] { $n } minutes
    }. Hand their seat to a bot until they come back?
clock-bot-level = Bot level
clock-handover = Hand { $name }'s seat to a bot
clock-flagged-note = Your time ran out: a bot plays your seat to the end of the game.
clock-takeback-note = A bot plays for you while you were away.
clock-takeback = Take my seat back
clock-none = No clock
clock-realtime = Real time { $m } min + { $s } s a move
clock-custom = Real time, custom…
clock-turn = { $n ->
        [one] Turn-based: { $n } day a move
       *[other] Turn-based: { $n } days a move
    }
clock-legend = Clock
clock-control = Time control
clock-minutes-each = Minutes each
clock-increment = Seconds added a move
clock-away = Minutes away before a bot may take a seat
yourturn = Your turn
yourturn-title = Games where it is your turn
yourturn-count = { $n ->
        [one] Your turn in { $n } game
       *[other] Your turn in { $n } games
    }
yourturn-game = { $name } vs { $others }

## Rematch and notifications
rematch = Rematch
rematch-help = Same seats and rules; the next player starts
rematch-ready = The rematch is ready.
rematch-waiting = Rematch: waiting for { $names }.
rematch-watch = Watch the rematch
push-on = Notify me when it is my turn: on (click to switch off)
push-off = Notify me when it is my turn: off (click to switch on)
push-busy = Notify me when it is my turn: asking…
push-blocked = Notify me when it is my turn: notifications are blocked for this site in the browser's settings
push-unavailable = Notify me when it is my turn: this browser cannot receive notifications from this page

## Chat
chat-empty = No messages yet.
chat-phrase-good-game = Good game
chat-phrase-nice-move = Nice move
chat-phrase-one-moment = One moment
chat-phrase-your-turn = Your turn when ready
chat-phrase-thanks = Thanks!
chat-phrases = Quick phrases
chat-message = Message
chat-send = Send
chat-show = Show chat
chat-muted-one = { $name } is muted
chat-unmuted-one = { $name } is no longer muted
chat-title = Chat
chat-title-new = Chat ({ $n } new)
chat-note = Players see the players’ chat; spectators’ chat shows once the game is over.
chat-watching = { $name } (watching)
chat-mute = Mute
chat-mute-name = Mute { $name }
chat-muted = Muted:
chat-unmute-name = Unmute { $name }
chat-new-hidden = { $n ->
        [one] One message from a new spectator is hidden (you muted a spectator).
       *[other] { $n } messages from new spectators are hidden (you muted a spectator).
    }
chat-show-new = Show
chat-offer = Offer this chat for download with the record
chat-agreed = { $agreed } of { $n } players agreed to the chat’s download.
chat-download = Download chat

## Passkeys (sign-in)
passkey-or = or
passkey-sign-in = Sign in with a passkey

## Outnumbered followers
outnumbered-part = { $n ->
        [one] { $name }'s { $role }
       *[other] { $name }'s { $n } { $role }s
    }
word-and = and

## Lobby, profiles, leaderboard
# (web/js/lobby.js, profile.js, leaderboard.js, the account page's passkeys
# in passkeys.js, and push.js's messages)

lobby-title = Lobby
lobby-play-now = Play now
lobby-play-now-about = The rules you choose, against whoever is waiting for them (players close in rating first).
lobby-your-name = Your name
lobby-bot-after = If nobody comes, a bot after
lobby-never = never: keep waiting
lobby-stop-waiting = Stop waiting
lobby-open-title = Open a table
lobby-other-seats = The other seats
lobby-add-seat = + Add a seat
lobby-preset-standard = Standard
lobby-preset-beginner = Beginner
lobby-preset-first-edition = First edition
lobby-rated = Rated (signed-in people, no bots, rules without house rules)
lobby-known-only = Regulars only (accounts a day old with a rated game played)
lobby-open-go = Open the table
lobby-tables-title = Open tables
lobby-connecting = Connecting…
lobby-live = Live: tables appear as they open.
lobby-reconnecting = Reconnecting…
lobby-new-table = New table: { $host }'s, { $free ->
        [one] { $free } seat free
       *[other] { $free } seats free
    }.
lobby-table-gone = { $host }'s table closed.
lobby-your-table-gone = A table you sat at was closed
lobby-seat = Seat { $n }
lobby-seat-open = Open for a player
lobby-level = Level
lobby-remove-seat = Remove seat { $n }
lobby-no-tables = No open table yet: open one, or press Play now.
lobby-open = open
lobby-sit = Sit here
lobby-sit-label = Sit here: seat { $n } at { $host }'s table
lobby-bot-seat = (bot, { $level })
lobby-host = (host)
lobby-you = (you)
lobby-seat-of = Seat { $n }:
lobby-start = Start the game
lobby-close-table = Close the table
lobby-stand = Stand up
lobby-table-of = { $host }'s table
lobby-badge-rated = rated
lobby-badge-casual = casual
lobby-the-rules = The rules
lobby-seats-free = { $total ->
        [one] { $free } of { $total } seat free
       *[other] { $free } of { $total } seats free
    }
lobby-host-rating = host rated { $rating } ({ $pool })
lobby-badge-known = regulars only
lobby-known-only-seat = for regulars
lobby-seats = Seats
lobby-sat-down = You sat down: the game opens when it starts
lobby-table-opened = Your table is open: it starts when it is full, or when you start it
lobby-paired-bot = Nobody came: a game against a bot starts.
lobby-paired = Paired: the game starts.
lobby-looking = Looking for a player… { $s } s
lobby-stopped = Stopped waiting.
lobby-wait-ended = Your wait ended: press Play now to look again.
profile-loading = Loading the profile…
profile-not-found = No such player
profile-nobody = Nobody plays here under the name “{ $name }”.
profile-see-leaderboard = See the leaderboard
profile-page-title = { $name } — Carcassonne
profile-pool-duel = Base game, two players (Glicko-2)
profile-pool-multi = Base game, three to six players (Weng-Lin)
profile-provisional = provisional
profile-provisional-title = { $n ->
        [one] Fewer than { $n } rated game
       *[other] Fewer than { $n } rated games
    }
profile-rated-games = { $n ->
        [one] { $n } rated game
       *[other] { $n } rated games
    }
profile-chart = { $n ->
        [one] Rating over { $n } rated game
       *[other] Rating over { $n } rated games
    }: from { $first } to { $last }, lowest { $low }, highest { $high }.
profile-history = Rating history as a table
profile-history-caption = Rating after each rated game
profile-col-game = Game
profile-col-place = Place
profile-col-before = Before
profile-col-after = After
profile-ratings = Ratings
profile-no-rated = No rated games yet.
profile-bot = ({ $level } bot)
profile-result-won = won
profile-result-lost = lost
profile-result-shared-win = shared win
profile-result-in-play = in play
profile-rated = rated
profile-replay = Replay
profile-review = Review
profile-watch = Watch
profile-no-games = No games yet.
profile-games = Games
profile-filters = Filter the games
profile-filter-rated-label = Rated
profile-filter-clock-label = Clock
profile-filter-result-label = Result
profile-filter-all = All
profile-filter-rated = Rated only
profile-filter-casual = Casual only
profile-filter-realtime = Real time
profile-filter-turn = Turn-based
profile-filter-none = No game matches these filters.
profile-col-won = Won
profile-col-win-rate = Win rate
profile-since = Playing since { $date }
profile-leaderboard = Leaderboard
profile-win-rates = Win rates
profile-by-rules = By rules
profile-col-rules = Rules
profile-by-players = By number of players
profile-col-players = Players
profile-no-finished = No finished games yet.
leaderboard-loading = Loading the leaderboard…
leaderboard-title = Leaderboard
leaderboard-page-title = Leaderboard — Carcassonne
leaderboard-duel = Two players
leaderboard-multi = Three to six players
leaderboard-col-rank = #
leaderboard-col-player = Player
leaderboard-col-rating = Rating
leaderboard-col-games = Games
leaderboard-col-bot = Bot
leaderboard-nobody = { $n ->
        [one] Nobody yet: a player is listed after { $n } rated game.
       *[other] Nobody yet: a player is listed after { $n } rated games.
    }
leaderboard-about = { $n ->
        [one] Rated games only. A rating is provisional for its first game.
       *[other] Rated games only. A rating is provisional for its first { $n } games.
    }
leaderboard-bots = Bots
leaderboard-bots-about = How strong each bot is on the rating scale, measured by bots playing each other. Games against a bot are never rated.
passkeys-title = Passkeys
passkeys-about = A passkey signs you in with your fingerprint, face or device PIN instead of your password. Your password keeps working.
passkeys-name-label = Name of the new passkey (optional)
passkeys-name-placeholder = e.g. My phone
passkeys-add = Add a passkey
passkeys-no-browser = This browser cannot use passkeys.
passkeys-none = No passkeys yet.
passkeys-added-on = Added { $date }
passkeys-last-used = last used { $date }
passkeys-not-used = not used yet
passkeys-remove = Remove
passkeys-remove-named = Remove passkey { $name }
passkeys-waiting = Waiting for your passkey…
passkeys-added = Passkey added. You can sign in with it now.
passkeys-removed = Passkey { $name } removed.
passkey-not-used = No passkey was used (cancelled, or none for this site).
passkey-already-added = This passkey is already on your account.
passkey-refused = This passkey was not accepted. Is it one of this account’s?
passkey-failed = the passkey did not work
push-will-notify = You will be notified when it is your turn
push-no-more = No more notifications for this game
push-on-failed = Notifications could not be switched on: { $reason }
push-off-failed = Notifications could not be switched off: { $reason }
push-no-worker = the service worker is not ready
push-cannot = This browser cannot receive notifications from this page (it needs https and a browser with Web Push).

## Tutorial, puzzles, review
## The learning views' words (learn.js, practice.js, puzzles.js, review.js,
## hint.js and the "why" of a scoring in panels.js). The lessons' own texts
## are lesson-KEY-title, -intro, -goal and -done, KEY a lesson's key in
## web/learn/lessons.json. Facts from the engine (a rule's $side, $ours,
## $theirs, $feature, $role; a direction $from or $dir; a feature $what)
## come as its English codes, for selectors.

### The tutorial
learn-title = Learn to play
learn-intro = Short lessons on the real board. Each sets up a position; you make the move, and the game's rules engine checks it.
learn-progress = { $done } of { $total } lessons done
learn-you = You
learn-check = Play this move
learn-retry = Try again
learn-show = Show me
learn-next = Next lesson
learn-back = All lessons
learn-done-badge = done
learn-reset = Forget my progress
learn-go-on = Go on
learn-start = Start
learn-lesson-of = lesson { $n } of { $total }
learn-goal-label = Goal:
learn-undo = Undo
learn-refused = Not allowed
learn-keys = Keys: arrows move the tile, R turns it, F chooses a follower, Enter plays, Esc takes back.
learn-place-first = Put the tile on the board first: tap or click a cell next to a tile, or use the arrow keys.
learn-no-follower = No follower
learn-recall = Take the abbot back
learn-checking = Checking…
learn-solved = Well done!
learn-finished-all = You have done every lesson. Try a puzzle, or start a game.
learn-loading = Loading the lessons…
learn-load-failed = The lessons cannot be loaded (HTTP { $status }).
learn-placed = { $place }, turned { $deg }°
learn-move = { $tile }, { $place }, turned { $deg }°, { $follower }
learn-points = { $points ->
        [one] { $points } point
       *[other] { $points } points
    } ({ $what })
learn-what-final = { $what }, at the end
learn-what-recall = abbot taken back
learn-goal-miss = The rules allow that move, but it does not do what this lesson asks: { $goal }
learn-goal-miss-scored = That move scores { $scored }; the lesson wants: { $goal }
learn-goal-miss-deploy = The rules allow that move, but the lesson wants your { $role } on the board.

### Why the rules refuse a move (by the engine's rule code)
learn-error-edge_mismatch = That edge puts a { $ours } against a { $theirs } (the tile's { $side } edge). Every edge must continue its neighbour: road to road, city to city, field to field. Turn the tile (R) or try another cell.
learn-error-not_adjacent = A tile must touch a tile already on the board along a whole side, not just at a corner.
learn-error-cell_occupied = A tile already lies there.
learn-error-feature_occupied = This { $feature } already has a { $role }: you may only put a follower on a road, city or field that nobody holds yet, even one joined to it further along.
learn-error-bad_spot = There is no such spot on this tile.
learn-error-farmers_off = With these rules (farm scoring off) nobody plays farmers: fields never score. Put your follower on a road, a city or a cloister, or on nothing.
learn-error-no_follower = You have no follower left: all of them are on the board.
learn-error-river_not_continued = A river tile must continue the river from its open end.
learn-error-river_u_turn = The river may not turn the same way twice in a row (no U-turns).
learn-error-garden_for_abbot = Only the abbot may stand on a garden: choose the abbot (A), not a follower.
learn-error-abbot_spot = The abbot goes only on a cloister or a garden.
learn-error-abbot_in_use = Your abbot is already on the board: you can take him back instead (he scores as he stands).
learn-error-abbot_not_placed = Your abbot is not on the board, so there is nothing to take back.
learn-error-recall_complete = This tile completes the abbot's cloister or garden: it scores in full, so he cannot be recalled.
learn-error-no_abbot = The abbot is not in play with these rules.
learn-error-other = The rules do not allow that move: { $message }

### The lessons
lesson-lay-title = Laying a tile
lesson-lay-intro = Each turn you draw a tile and lay it next to the tiles already on the table. The start tile has a city at the top and a road across it. Your tile, a bend in the road, must continue what it touches: road to road, city to city, field to field.
lesson-lay-goal = Lay the road bend so that it touches the board with matching edges.
lesson-lay-done = That is a turn: the tile fits. You could also have put a follower on it. Lay the same bend turned round, and the rules explain why it does not fit.
lesson-road-title = Roads and thieves
lesson-road-intro = A follower on a road is a thief. You put a thief on the road west of the start; it ends at a crossroads there. A road is complete when both its ends stop (at a crossroads, a town, a cloister or a loop). A completed road scores 1 point a tile for the thief's owner, and the thief comes back.
lesson-road-goal = Close your road with this crossroads tile: it scores 3 points (3 tiles).
lesson-road-done = 3 tiles, 3 points, and your thief is back in your supply. You could not add a second thief on the same road: it already has yours.
lesson-city-title = Cities, knights and shields
lesson-city-intro = A follower in a city is a knight. Your knight holds the city above the start; its tile has a shield. A completed city scores 2 points a tile and 2 more for each shield.
lesson-city-goal = Close the city with the city edge of your tile: 3 tiles and 1 shield make 8 points.
lesson-city-done = 2 × 3 tiles + 2 for the shield = 8 points, and the knight comes back. A city still open at the end of the game scores only 1 a tile and 1 a shield.
lesson-cloister-title = Cloisters and monks
lesson-cloister-intro = A follower on a cloister is a monk. Your monk stands in the cloister south of the start, and 7 of the 8 cells around it are filled. A cloister is complete when all 8 are: it scores 9 points (1 for itself and 1 for each neighbour).
lesson-cloister-goal = Fill the last cell around the cloister: your monk scores 9 points.
lesson-cloister-done = 9 points. Anyone may fill the cells around a cloister; the points go to the monk's owner.
lesson-share-title = Sharing a city
lesson-share-intro = Your knight holds the small city north-west of the start, Bea's the one north-east; the start's own city lies between them. Nobody may put a knight into a city that has one, but a tile may join cities that are held apart. When a joined feature is completed, whoever has the most followers in it scores it; with a tie, every tied player scores in full.
lesson-share-goal = Lay the big city tile above the start so that it joins the three cities and closes them: one knight each, so you and Bea both score 10 points (4 tiles and a shield).
lesson-share-done = 4 tiles × 2 + 2 for the shield = 10 points each: a tie shares nothing, it pays both in full. Both knights come back.
lesson-majority-title = Sharing and stealing a feature
lesson-majority-intro = You may not put a knight into a city that already has one, but two cities held separately may be joined later. Then the player with the most followers in it scores it all; with a tie every tied player scores in full. You hold two small cities (north of the start and two north, one east); Bea's knight holds the city east of the start.
lesson-majority-goal = Join the three cities into one and close it: your two knights beat Bea's one, and you take all 10 points.
lesson-majority-done = 5 tiles × 2 = 10 points, all yours: two knights against one. Had it been one each, you would both have scored 10. Every follower in it comes back.
lesson-farm-per-farm-title = Farmers: the standard rules (per farm)
lesson-farm-per-farm-intro = A follower lying in a field is a farmer. Fields score only at the end of the game: with the standard rule (per-farm), each farm pays its farmers' owner 3 points for every completed city it touches. A city can pay you twice through two farms. Your farmers lie in two farms: the field between the two cities above the start, and the field north of the road east of it.
lesson-farm-per-farm-goal = Lay the last tile so that it closes the top city. Then the game ends: the first farm touches 2 completed cities (6 points), the second touches 1 (3 points).
lesson-farm-per-farm-done = 6 + 3 = 9 points: the city above the start paid you twice, once through each farm.
lesson-farm-per-farm-once-title = Farmers: each city pays once (an option)
lesson-farm-per-farm-once-intro = The same board with the farm rule per-farm-once (the 2001 revision): farms score as before, but each completed city pays each player only once, however many of its farms they hold.
lesson-farm-per-farm-once-goal = Close the top city with the last tile: the two completed cities pay you 3 each, 6 points.
lesson-farm-per-farm-once-done = 6 points, not 9: the city above the start pays you only once although two of your farms touch it.
lesson-farm-per-city-title = Farmers: the first edition's rules (per city)
lesson-farm-per-city-intro = The same board with the farm rule per-city (the first edition): for each completed city, count each player's farmers in all the farms touching it; whoever has most scores 4 points for that city.
lesson-farm-per-city-goal = Close the top city with the last tile: each of the two completed cities pays you 4, 8 points.
lesson-farm-per-city-done = 4 + 4 = 8 points: one payment per completed city, to the player with the most farmers around it.
lesson-farm-off-title = No farmers: the beginner rules
lesson-farm-off-intro = The same board with farm scoring off (as the rules advise for first games): nobody may lie a farmer in a field, and fields never score.
lesson-farm-off-goal = Close the top city with a knight in it: a city of 2 tiles, 4 points.
lesson-farm-off-done = 4 points for the city, and nothing for the fields. Try to lay a farmer: the rules refuse it.
lesson-final-title = The final scoring
lesson-final-intro = When the last tile is laid, every follower still on the board scores what it holds, though unfinished: a road 1 a tile, a city 1 a tile and 1 a shield, a cloister 1 plus 1 a neighbour; then the farms. This is the last tile of the game.
lesson-final-goal = Lay the city tile with its shield above the start, with a knight in the city: at the end the open city scores 3 points (2 tiles and 1 shield).
lesson-final-done = An unfinished city scores half: 1 a tile, 1 a shield. Closed, it would have been 6.
lesson-river-title = The River
lesson-river-intro = With The River the game starts from the spring, and the river tiles are drawn first. Each must continue the river from its open end; the river never turns back on itself. Roads, cities and fields beside it play as usual.
lesson-river-goal = Lay the river tile below the spring so that the river flows on.
lesson-river-done = The river flows on. When it reaches the lake the ordinary tiles begin.
lesson-abbot-garden-title = The Abbot and the garden
lesson-abbot-garden-intro = With The Abbot each player also has an abbot. He goes only on a cloister or on a garden (the green patch on some tiles), and only he may stand on a garden. A garden scores like a cloister: 9 when surrounded, 1 + neighbours at the end.
lesson-abbot-garden-goal = Lay the tile with the garden above the start and put your abbot (A) on its garden.
lesson-abbot-garden-done = Your abbot tends the garden. A follower may not stand there: only an abbot.
lesson-abbot-recall-title = Taking the abbot back
lesson-abbot-recall-intro = Instead of putting a follower on the tile you lay, you may take your abbot back: he scores at once what his cloister or garden is worth now (1 + each tile around it), and returns to you.
lesson-abbot-recall-goal = Lay the cloister tile west of the garden and take your abbot back: 1 + 4 neighbours = 5 points.
lesson-abbot-recall-done = 5 points now, and your abbot is free again. This was the last tile: your thief's road then scores 3 at the end.

### Puzzles
puzzle-loading = Loading the puzzles…
puzzle-load-failed = The puzzles cannot be loaded (HTTP { $status }).
puzzle-player = Player { $n }
puzzle-title = Puzzles
puzzle-intro = Positions from games between bots where one move is clearly best: the search expects it to end the game at least { $gap } points better for you than any other move, on two separate samplings of the tiles to come. You see what the player saw: the board, the scores, the tile to lay and how many of each tile are left, never the order of the bag.
puzzle-today = Puzzle of the day
puzzle-progress = { $done } of { $total } solved
puzzle-name = Move { $turn }: the best of { $legal } moves
puzzle-solved-badge = solved
puzzle-all = All puzzles
puzzle-bag = { $count } tiles left in the bag
puzzle-bag-list = Which tiles are left
puzzle-goal = Find the clearly best move: the cell, the turn of the tile and the follower (or none). The search expects it to be worth at least { $gap } points more than any other.
puzzle-show = Show the answer
puzzle-next = Next puzzle
puzzle-right = Right!
puzzle-explain = The best move: { $best }. The search expects you to end the game { $margin } points against the best other player after it; the next best move, { $second }, is { $gap } points behind.
puzzle-wrong = The rules allow it, but it is not the clearly best move. Yours: { $yours }; it scores { $scored } now.
puzzle-hint = Hint: the best move lies { $beside }. Try again, or show the answer.
puzzle-beside = beside { $list }
puzzle-beside-part = the { $what } to the { $dir }
puzzle-answer-beside = { $move }, { $beside }

### The game review (replay viewer)
review-title = Review
review-progress = The search is reviewing the game: { $done } of { $total } moves…
review-load-failed = The review could not be loaded.
review-step = Step through the game to see what the search thought of each move.
review-better = Move { $turn }, { $name }: better was { $tile } { $better }: { $gain }.
review-agrees = Move { $turn }, { $name }: the search agrees.
review-played = Played: { $move }.
review-show-better = Show it on the board
review-back-to-played = Back to the move played
review-totals = Points lost to better moves, as the search expects them: { $totals }
review-totals-about = The search's value of its best move minus that of the move played, each the mean final margin over sampled tile orders (budget { $budget } a move)
review-curve-dot = move { $turn }: { $lost } expected
review-curve-axis = move
review-banner = Move { $turn }: better for { $name } was { $tile } { $better }
review-move = { $where }, { $follower }
review-where = { $from } of { $what ->
        [cloister] the cloister
        [garden] the garden
        [city] the city
        [road] the road
        [field] the field
        [city-tile] the tile with a city
        [road-tile] the tile with a road
       *[start] the start tile
    }
review-held = { $where } with { $name }’s { $role ->
        [knight] knight
        [thief] thief
        [monk] monk
        [abbot] abbot
       *[farmer] farmer
    }
review-beside = beside the { $what ->
        [cloister] cloister
       *[garden] garden
    }
review-where-and = { $first } and { $second }
review-same-place = the same place
review-same-place-turned = the same place, { $turn ->
        [1] turned a quarter
        [2] turned half round
       *[3] turned three quarters
    }
review-follower-none = no follower
review-follower-recall = recalling the abbot
review-gain-little = a little more ({ $points } points)
review-gain-about = about { $n ->
        [one] { $n } point
       *[other] { $n } points
    } more

### The hint's sentence
hint-looking = The search is looking for a good move…
hint-words = Hint: { $where }, { $follower } — { $gain }.
hint-gain = { $gain } than your average move
hint-gain-none = about as good as your average move: here every move is worth much the same
hint-error-rate_limited = Too many hints: wait a moment and try again.
hint-error-busy = The search is busy: try again in a moment.
hint-error-stale_version = The game moved on: ask again.
hint-error-other = No hint: { $message }

### Why a scoring scored (shown on the board)
why-road = A finished road of { $tiles ->
        [one] { $tiles } tile
       *[other] { $tiles } tiles
    }: { $tiles } × 1 = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-road-final = An unfinished road of { $tiles ->
        [one] { $tiles } tile
       *[other] { $tiles } tiles
    }: { $tiles } × 1 = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-city = { $state ->
        [final] An unfinished city
        [small] A finished small city
       *[done] A finished city
    } of { $tiles ->
        [one] { $tiles } tile
       *[other] { $tiles } tiles
    }{ $shields ->
        [0] {""}
        [one] {" "}and { $shields } shield
       *[other] {" "}and { $shields } shields
    }: { $tiles } × { $each }{ $shields ->
        [0] {""}
       *[other] {" "}+ { $shields } × { $each }
    } = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-cloister = A { $kind ->
        [garden] garden
       *[cloister] cloister
    } with all 8 tiles around it: 1 + 8 = { $points } points.
why-cloister-final = An unfinished { $kind ->
        [garden] garden
       *[cloister] cloister
    }: 1 + { $around ->
        [one] { $around } tile
       *[other] { $around } tiles
    } around it = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-farm = A farm supplying { $cities ->
        [one] { $cities } completed city
       *[other] { $cities } completed cities
    }: { $cities } × { $each } = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-points = { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
why-roles = { $role ->
        [thief] thieves
       *[other] { $role }s
    }
why-most = { $names } had the most { $roles } on it: { $n ->
        [one] { $points } points
       *[other] each scores { $points }
    }.
why-alone = { $name } alone had { $n ->
        [one] { $code ->
            [abbot] an abbot
           *[other] a { $role }
        }
       *[other] { $n } { $roles }
    } on it.
why-tie = A tie for the most { $roles } ({ $tally }): { $names } each score { $points }.
why-beat = { $name } had the most { $roles } ({ $tally }) and scores { $points }; the others nothing.
why-counted = { $n ->
        [one] The lit follower counted.
       *[other] The lit followers counted.
    }
why-counted-beaten = { $n ->
        [one] The lit follower counted
       *[other] The lit followers counted
    }; { $beaten } { $m ->
        [one] was
       *[other] were
    } outnumbered and scored nothing.

## Ending a game early: resign, leave, abort, end at a flag (clock.js)
end-resign = Resign
end-resign-seat = Resign for { $name }
end-leave = Leave the game
end-leave-seat = Leave for { $name }
end-panel = Ending the game
end-abort = Abort the game
end-finish = End the game now
end-play-on = Play on against a bot
end-cancel = Cancel
end-resign-title = Resign this game?
end-resign-confirm = Resign
end-resign-text = You are out of the game and cannot win it; a bot plays your seat to the end.
end-resign-text-rated = You are out of the game and ranked last: this rated game counts as a loss, and a bot plays your seat to the end.
end-resign-text-duel = The game ends now and the other player wins.
end-resign-text-duel-rated = The game ends now and the other player wins: this rated game counts as a loss for you.
end-leave-title = Leave this game?
end-leave-confirm = Leave
end-leave-text = A bot takes your seat and plays it to the end; you cannot take it back.
end-leave-text-rated = Your seat stays yours and your clock runs on: when it runs out you lose this rated game, and the others may hand your seat to a bot.
end-leave-text-rated-untimed = This rated game has no clock: leaving it is resigning. You are ranked last, and it counts as a loss.
end-resign-text-alone = No other person is left: the game ends now, and the best score among the others wins.
end-resign-text-alone-rated = No other person is left: the game ends now, the best score among the others wins, and this rated game counts as a loss for you.
end-leave-text-ends = The game ends now, with the scores as they stand.
end-abort-title = Abort this game?
end-abort-confirm = Abort
end-abort-text = The game ends now, unplayed: no result for anyone.
end-abort-text-rated = The game ends now, unplayed: no result, and no rating changes for anyone.
end-finish-title = End the game now?
end-finish-confirm = End the game
end-finish-text = The game ends with the scores as they stand; the best score wins. This casual game changes no ratings.
end-flag-title = { $name }’s time ran out
end-flag-text = { $name } ran out of time. End the game now with the scores as they stand, or play on with a bot in their seat?
end-log-resigned = { $name } resigned
end-log-left = { $name } left the game
end-log-aborted = { $name } aborted the game
end-log-ended = The game ended as it stood when { $name } went out
end-log-ended-flag = { $by } ended the game when { $name } ran out of time
end-aborted-why = A player aborted the game before everyone had moved: it ends unplayed, and counts for nobody.
banner-aborted-by = { $name } aborted the game: no result, no rating.

## Blocking and reporting (moderation.js)
mod-block = Block
mod-unblock = Unblock
mod-block-name = Block { $name }
mod-unblock-name = Unblock { $name }
mod-report = Report
mod-report-name = Report { $name }
mod-report-line = Report this message by { $name }
mod-blocked = You blocked { $name }: you will not see their messages, nor be paired or seated with them.
mod-unblocked = You unblocked { $name }.
mod-report-title = Report { $name }
mod-reason = Why?
mod-reason-offensive_name = Offensive name
mod-reason-abusive_chat = Abusive chat
mod-reason-cheating = Cheating
mod-reason-other = Something else
mod-note = Anything to add (optional)
mod-report-help = The server’s operator reads reports and can mute, rename or close an account. They see your name.
mod-report-send = Send the report
mod-cancel = Cancel
mod-reported = Thank you: your report went to the server’s operator.
mod-blocks-title = Blocked players
mod-blocks-text = You do not see their chat messages, and you are never paired or seated with them.
mod-blocks-none = You block nobody.

## The operator's page (admin.js)
admin-title = Reports
admin-page-title = Reports — Carcassonne
admin-about = Players’ reports of names and chat messages, newest first. Mute, rename or close the account reported, then resolve the report.
admin-link-text = You are an operator of this server: read the players’ reports and deal with them.
admin-open = Open the reports
admin-show-all = Show resolved reports too
admin-loading = Loading the reports…
admin-none = No open reports.
admin-none-all = No reports.
admin-what-name = Name: { $name }
admin-what-chat = Chat message by { $name }
admin-whom-guest = { $name } (not signed in)
admin-whom-deleted = { $name } (account deleted)
admin-whom-renamed = { $name } (now { $now })
admin-reason = Reason
admin-reporter = Reported by
admin-reporter-guest = a guest holding a seat
admin-when = When
admin-against = Open reports against this account
admin-game = Game
admin-state = Account
admin-state-muted = muted until { $until }
admin-state-closed = closed on { $when }
admin-resolved-at = Resolved
admin-note = Note:
admin-mute-for = Mute for
admin-hours = { $n ->
        [one] { $n } hour
       *[other] { $n } hours
    }
admin-days = { $n ->
        [one] { $n } day
       *[other] { $n } days
    }
admin-unmute = no longer (lift the mute)
admin-mute = Mute
admin-new-name = New name
admin-rename = Rename
admin-close = Close the account
admin-close-confirm = Close { $name }’s account? They are signed out everywhere and can no longer sign in or chat; their games and ratings stay. This cannot be undone: neither this page nor carcassonne admin reopens an account.
admin-resolve = Resolve
admin-muted = { $name } may not chat until { $until }.
admin-unmuted = { $name } may chat again.
admin-renamed = { $was } is now named { $name }.
admin-closed = { $name }’s account is closed: signed out everywhere.
admin-closed-already = { $name }’s account was closed already.
admin-resolved = Report { $id } is resolved.
error-muted = You may not chat for now: the server’s operator muted you.
error-account_closed = This account was closed by the server’s operator.
error-blocked = You cannot sit at this table.
error-cannot_block_self = You cannot block yourself.
error-too_many_blocks = You block as many players as you may: unblock one first.
error-not_a_member = That message’s author was not signed in: report it instead.
error-cannot_report_self = You cannot report yourself.
error-already_reported = You reported this already.
error-reports_too_fast = Too many reports at once: wait a minute.
error-too_many_reports = Too many reports wait for the operator: try again later.
# Takebacks (takeback.js): a casual game's player asks to take back their last move.
takeback-panel = Takeback
takeback-ask = Take back my move
takeback-ask-help = Asks the other players to undo your last move (and the moves played after it).
takeback-waiting = Asked { $names } to take back your move…
takeback-asks = { $name } asks to take back their move (move { $n }).
takeback-asks-many = { $name } asks to take back their move (move { $n }) and the { $count } moves after it.
takeback-asks-others = { $name } asks to take back their move; waiting for { $names }.
takeback-accept = Accept
takeback-decline = Decline
takeback-granted = Takeback accepted: move { $n } was taken back.
takeback-granted-yours = Takeback accepted: your move is taken back. Your turn.
takeback-declined = { $name } declined the takeback.
takeback-lapsed = The takeback request lapsed: nobody answered before a move or in time.
error-not_in_rated = A rated game allows no takebacks.
error-nothing_to_take_back = You have played no move to take back.
error-takeback_pending = A takeback is already asked: wait for its answer.
error-takeback_declined = Your takeback of this move was declined: it cannot be asked again.
error-no_takeback_asked = No takeback is waiting for your answer.

# Big Box: rules page and lessons

rules-examples-failed = The examples could not be loaded (status { $status }).
rules-bb-title = The Big Box, part by part
rules-bb-intro = These rules play Big Box expansions. Each part below has a small example board, the last tile laid outlined, with its points worked out.
rules-bb-switches = Parts on and off
rules-bb-on = on
rules-bb-off = off in these rules
rules-ex-inn-title = An inn on a road
rules-ex-inn = Ann’s thief stands on a road of 4 tiles with an inn beside it. Ann closes it: a finished road with an inn scores 2 points per tile, 4 × 2 = 8 points (without the inn: 4). Left open at the end, it would have scored nothing. Final score: Ann 8, Ben 0.
rules-ex-cathedral-title = A cathedral in a city
rules-ex-cathedral = Ann’s knight holds a city of 5 tiles with a cathedral and no shield. Once finished, it scores 3 points per tile and per shield: 5 × 3 = 15 points. Final score: Ann 15, Ben 0.
rules-ex-cathedral-open-title = An unfinished cathedral city at the end
rules-ex-cathedral-open = The same city, still open when the game ends: a city with a cathedral that is not finished scores nothing, so Ann’s knight earns 0 points (without the cathedral, its 4 tiles would have earned 4). Final score: Ann 0, Ben 0.
rules-ex-big-follower-title = The big follower
rules-ex-big-follower = Ann’s big follower (drawn larger) and Ben’s knight stand in two parts of a city; Ann’s last tile joins and closes it: 4 tiles and 2 shields. The big follower counts as two knights, so Ann has the majority, 2 to 1, and alone scores 2 × (4 + 2) = 12 points. It scores no more than a knight would. Final score: Ann 12, Ben 0.
rules-ex-goods-title = Goods and the majority of each kind at the end
rules-ex-goods = Ben closes Ann’s city of 3 tiles, which shows a wine symbol: Ann’s knight scores 3 × 2 = 6 points, and Ben, who laid the closing tile, takes the wine token. At the end, whoever holds the most tokens of a kind scores 10 for it: Ben has 1 wine, Ann none, so Ben scores 10. Final score: Ann 6, Ben 10.
rules-ex-builder-title = The builder’s double turn
rules-ex-builder = Ann’s thief and her builder stand on the road. Ann extends that road, so she plays a second tile straight away (outlined): it closes the road of 6 tiles, 6 points, and the thief and builder come home. A second tile never brings a third. Final score: Ann 6, Ben 0.
rules-ex-pig-title = The pig in a farm
rules-ex-pig = Ann’s farmer, her pig and Ben’s farmer share a farm that borders one finished city. A pig is no farmer: 1 farmer each, both have the majority. Ben scores 3 points for the city; Ann, whose own pig is in the farm, scores 4. Final score: Ann 4, Ben 3.
rules-ex-farm-rule = This example scores its farm as the standard rules do (each farm pays its majority); these rules score farms their own way (see Farms above), and the pig adds 1 point to each city it pays its owner.
learn-step-of = Step { $n } of { $total }
learn-next-step = Next step
learn-goods-taken = goods tokens of the finished city
learn-what-goods = the most goods of a kind
lesson-inns-cathedrals-title = Inns & Cathedrals: inns and the big follower
lesson-inns-cathedrals-intro = Inns & Cathedrals adds inns, cathedrals and a big follower for each player. Your thief stands on the road that runs from the cloister west of the start to Bea’s tile with an inn.
lesson-inns-cathedrals-goal = Close the road with the cloister tile east of the inn: 4 tiles with an inn score 2 each, 8 points.
lesson-inns-cathedrals-done = 8 points instead of 4: the inn doubled your road. An inn road still open at the end would have scored nothing.
lesson-inns-cathedrals-2-intro = Bea has put her knight in the city above the start. Your big follower counts as two followers in every majority.
lesson-inns-cathedrals-2-goal = Lay the city tile above your cloister at the road’s east end, its city facing west, and put your big follower in it.
lesson-inns-cathedrals-2-done = Your big follower stands in a city of its own, next to Bea’s.
lesson-inns-cathedrals-3-intro = One tile can join the two cities. Then your big follower and Bea’s knight stand in the same city.
lesson-inns-cathedrals-3-goal = Join and close the two cities with the city tile between them: your big follower beats Bea’s knight 2 to 1, so you alone score 4 tiles and a shield, 10 points.
lesson-inns-cathedrals-3-done = 10 points for you and none for Bea: the big follower won the majority.
lesson-traders-builders-title = Traders & Builders: goods and the builder
lesson-traders-builders-intro = Traders & Builders adds goods, and a builder and a pig for each player. Whoever finishes a city takes a goods token for each symbol in it, whoever holds the city. Bea’s knight holds the wine city above the start.
lesson-traders-builders-goal = Finish Bea’s wine city with the city tile east of it: Bea scores 6 points, and you take the wine token.
lesson-traders-builders-done = Bea scored 6, but the wine is yours. At the end, the most tokens of each kind score 10.
lesson-traders-builders-2-intro = Your thief stands on the road east of the start. A builder may join a road or city that holds one of your followers.
lesson-traders-builders-2-goal = Extend your road by one tile to the east and put your builder on it.
lesson-traders-builders-2-done = Your builder stands on your thief’s road.
lesson-traders-builders-3-intro = Whenever you extend the road or city of your builder, you play a second tile straight away.
lesson-traders-builders-3-goal = Extend the road east once more, and you play again.
lesson-traders-builders-3-done = A double turn: you play a second tile now.
lesson-traders-builders-4-intro = This is your builder’s extra tile. It is the last tile of the game.
lesson-traders-builders-4-goal = Close the road with the cloister tile: 6 tiles, 6 points. Then the game ends, and your wine token is the most wine: 10 points more.
lesson-traders-builders-4-done = 6 points for the road and 10 for the wine: goods and the builder both paid.

# Big Box: ratings and lobby
rating-family-base = Base game
rating-family-big-box = Big Box
rating-pool-duel = base game, two players
rating-pool-multi = base game, three to six players
rating-pool-big-box-duel = Big Box, two players
rating-pool-big-box-multi = Big Box, three to six players
profile-pool-big-box-duel = Big Box, two players (Glicko-2)
profile-pool-big-box-multi = Big Box, three to six players (Weng-Lin)
profile-game-pool = rated: { $pool }
leaderboard-family = Rule set
leaderboard-family-about = Each rule set keeps ratings of its own: the base game (standard, beginner and first edition rules) and the Big Box.
lobby-preset-big-box = Big Box
lobby-pn-rules = Rules
lobby-pn-rules-base = Standard
lobby-pn-rules-big-box = Big Box
lobby-table-rules = Rules: { $preset }
results-ratings-pool = Rating pool: { $pool }

# Big Box: game page (game.js, panels.js): the big follower, the builder, the pig, goods.
preset-big-box-title = The Big Box
kind-goods = Goods
role-big = big { $role }
figure-big = big follower
figure-builder = builder
figure-pig = pig
figure-home = { $figure } in supply
figure-away = { $figure } on the board
goods-held = goods: { $wine } wine, { $wheat } wheat, { $cloth } cloth
goods-count = { $n } { $good ->
        [wine] wine
        [wheat] wheat
       *[cloth] cloth
    }
scored-with-inn = with an inn
scored-with-cathedral = with a cathedral
scored-with-pig = { $n ->
        [one] { $n } city with the pig
       *[other] { $n } cities with the pig
    }
scored-goods-taken = goods taken: { $goods }
scored-goods-final = most { $good ->
        [wine] wine
        [wheat] wheat
       *[cloth] cloth
    } ({ $n })
builder-bonus = Builder: { $name } plays a second tile
builder-bonus-you = Builder: you play a second tile
spot-picker-figures = Figure and spot
results-goods = Goods majorities
results-goods-won = { $good ->
        [wine] Wine
        [wheat] Wheat
       *[cloth] Cloth
    }: { $names } +{ $points } ({ $count })
results-goods-none = { $good ->
        [wine] Wine
        [wheat] Wheat
       *[cloth] Cloth
    }: nobody took any
rules-expansions = With { $list }.
expansion-inns_cathedrals = Inns & Cathedrals
expansion-traders_builders = Traders & Builders
