//! The rule set a game is played with: presets and options (rules.md).

use std::fmt;

use crate::expansion::Expansion;

/// How farms score at the end of the game (rules.md, "Farm scoring — options").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum FarmRule {
    /// 3 points per completed city bordering the farm, for the farm's majority.
    #[default]
    PerFarm,
    /// As `PerFarm`, but each city pays each player at most once (2001 revision).
    PerFarmOnce,
    /// Each completed city pays 4 to the majority of farmers over all farms bordering it (2000).
    PerCity,
    /// No farmers.
    Off,
}

impl FarmRule {
    pub const ALL: [FarmRule; 4] = [FarmRule::PerFarm, FarmRule::PerFarmOnce, FarmRule::PerCity, FarmRule::Off];

    pub const fn name(self) -> &'static str {
        FARM_NAMES[self as usize]
    }

    pub fn from_name(s: &str) -> Option<FarmRule> {
        FarmRule::ALL.into_iter().find(|f| f.name() == s)
    }

    /// The rule in one sentence.
    pub const fn summary(self) -> &'static str {
        match self {
            FarmRule::PerFarm => "each farm pays its farmers' majority 3 points per completed city it borders.",
            FarmRule::PerFarmOnce => {
                "3 points per completed city, each city paying each player at most once (2001 rules)."
            }
            FarmRule::PerCity => {
                "each completed city pays 4 points to the most farmers over all farms bordering it (2000 rules)."
            }
            FarmRule::Off => "no farmers are played.",
        }
    }

    /// A small worked example of the rule.
    pub const fn example(self) -> &'static str {
        match self {
            FarmRule::PerFarm => {
                "Example: a farm borders two completed cities and one unfinished city. Ada has two farmers on it, \
                 Bob one. Ada scores 2 × 3 = 6, Bob nothing; the unfinished city pays no one. If Bob also holds \
                 another farm that borders one of those cities, that city pays him 3 as well."
            }
            FarmRule::PerFarmOnce => {
                "Example: Ada holds the most farmers on two farms, and both border the same completed city. That city \
                 pays her 3 once, not 3 for each farm. A second completed city bordering one of the farms pays her \
                 another 3."
            }
            FarmRule::PerCity => {
                "Example: a completed city borders two farms. Ada has one farmer on the first; Bob has one on each. \
                 Counted over both farms, Bob has 2 farmers to Ada's 1, so the city pays Bob 4 and Ada nothing. \
                 With a tie, both would score 4."
            }
            FarmRule::Off => {
                "Example: a field next to three completed cities is worth nothing to anyone: followers cannot be laid \
                 in fields."
            }
        }
    }
}

/// A named starting point for a rule set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Preset {
    #[default]
    Standard,
    Beginner,
    FirstEdition,
    /// `standard` with The River, The Abbot, Inns & Cathedrals and Traders
    /// & Builders: the Big Box's two big expansions and two minis (expansions.md §5).
    BigBox,
}

impl Preset {
    pub const ALL: [Preset; 4] = [Preset::Standard, Preset::Beginner, Preset::FirstEdition, Preset::BigBox];

    pub const fn name(self) -> &'static str {
        match self {
            Preset::Standard => "standard",
            Preset::Beginner => "beginner",
            Preset::FirstEdition => "first-edition",
            Preset::BigBox => "big-box",
        }
    }

    pub fn from_name(s: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == s)
    }

    /// The preset in a sentence, for people choosing one: the headline of
    /// its rule set ([`Rules::headline`]).
    pub fn summary(self) -> String {
        Rules::preset(self).headline()
    }

    /// What the preset stands for, in a few words.
    const fn title(self) -> &'static str {
        match self {
            Preset::Standard => "Today's rules",
            Preset::Beginner => "A gentle first game",
            Preset::FirstEdition => "The 2000 rules",
            Preset::BigBox => "The Big Box",
        }
    }
}

/// What happens to a drawn tile that fits nowhere.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Unplaceable {
    /// It leaves the game (the rule texts' default).
    #[default]
    Discard,
    /// It goes back into the bag at a random place (house rule).
    Reshuffle,
}

impl Unplaceable {
    pub const ALL: [Unplaceable; 2] = [Unplaceable::Discard, Unplaceable::Reshuffle];

    pub const fn name(self) -> &'static str {
        UNPLACEABLE_NAMES[self as usize]
    }
}

/// Who plays first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum FirstPlayer {
    #[default]
    Seat0,
    Random,
}

impl FirstPlayer {
    pub const ALL: [FirstPlayer; 2] = [FirstPlayer::Seat0, FirstPlayer::Random];

    pub const fn name(self) -> &'static str {
        FIRST_PLAYER_NAMES[self as usize]
    }
}

/// The full rule set of a game: a preset and every option of rules.md.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub preset: Preset,
    pub farms: FarmRule,
    /// A completed 2-tile city scores 1 per tile and shield instead of 2.
    pub small_city: bool,
    /// The River: 12 river tiles start the game.
    pub river: bool,
    /// The Abbot: one abbot per player, gardens, recall.
    pub abbot: bool,
    /// Tiles each player holds (1–3); more than 1 is the hand house rule.
    pub hand: u8,
    /// Hands are shown to everyone.
    pub hand_visible: bool,
    /// Draw your next tile at the end of your turn.
    pub draw_at_turn_end: bool,
    pub unplaceable: Unplaceable,
    /// A tile placed with tiles on all four sides earns another turn.
    pub hole_bonus_turn: bool,
    /// Incomplete roads, cities, cloisters and gardens score at the end.
    pub incomplete_scoring: bool,
    /// Every tile lies within a W × H rectangle centred on the start tile.
    pub board_limit: Option<(u8, u8)>,
    /// With `board_limit`: road and city edges on the table's edge count as closed.
    pub border_completes: bool,
    pub first_player: FirstPlayer,
    /// Inns & Cathedrals: its 18 tiles, inns, cathedrals, a big follower each.
    pub inns_cathedrals: bool,
    /// Traders & Builders: its 24 tiles, goods, a builder and a pig each.
    pub traders_builders: bool,
    /// The parts of the expansions, each on by default and switched off
    /// only while its expansion is on (expansions.md §5). Read them through
    /// [`Rules::has_big_follower`] and the like, which also ask the expansion.
    pub big_follower: bool,
    pub inns: bool,
    pub cathedrals: bool,
    pub builder: bool,
    pub pig: bool,
    pub goods: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::preset(Preset::Standard)
    }
}

/// The type of values a rule option takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Flag,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A whole number from `min` to `max`.
    Count { min: u8, max: u8 },
    /// No limit, or a W × H table (odd sizes); `sizes` are those a form offers.
    Table { sizes: &'static [(u8, u8)] },
}

/// One option's value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OptionValue {
    Flag(bool),
    /// The word, from the option's [`OptionKind::Choice`] list.
    Choice(&'static str),
    Count(u8),
    Table(Option<(u8, u8)>),
}

impl OptionValue {
    /// The command line's text form: `true`, `per-city`, `2`, `7x5`, `none`.
    pub fn text(self) -> String {
        match self {
            OptionValue::Flag(b) => b.to_string(),
            OptionValue::Choice(s) => s.to_string(),
            OptionValue::Count(n) => n.to_string(),
            OptionValue::Table(Some((w, h))) => format!("{w}x{h}"),
            OptionValue::Table(None) => "none".into(),
        }
    }
}

/// Where an option lives in a rule-set code (see [`Rules::to_code`]): the
/// code is six bytes, `[version, enums, flags, hand, width, height]`, and a
/// seventh for the expansions when any of its bits is set (so that the
/// code of a rule set without them is what it always was).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CodeField {
    /// `width` bits from bit `shift` of byte `byte`: a choice's index in its
    /// list, or a flag (set when the flag differs from `zero`).
    Bits { byte: usize, shift: u8, width: u8, zero: bool },
    /// The whole byte `byte` (a count), or bytes `byte` and `byte + 1` (a
    /// table's width and height, both 0 for none).
    Bytes { byte: usize },
}

/// The one description of a rule option of rules.md: read by [`Rules::set`]
/// and [`Rules::changes`], records, codes, [`Rules::explain`], the server's
/// new-game form and rules page.
///
/// ```
/// use carcassonne::{OptionValue, Preset, RuleOption, Rules};
/// let river = RuleOption::named("river").unwrap();
/// let mut rules = Rules::default();
/// river.set(&mut rules, river.parse("on").unwrap());
/// assert_eq!(river.value(&rules), OptionValue::Flag(true));
/// assert_eq!(river.default_for(Preset::Standard), OptionValue::Flag(false));
/// assert_eq!(rules.to_string(), "standard,river=true");
/// let farms = RuleOption::named("farms").unwrap();
/// assert_eq!(farms.value_words(farms.default_for(Preset::FirstEdition)), "4 per city, majority over all its farms");
/// ```
pub struct RuleOption {
    /// The record's key, e.g. `small_city`.
    pub name: &'static str,
    /// Its message key in the interface's Fluent files (web/i18n/LANG.ftl),
    /// e.g. `rule-small_city`: the message is the label, its `.about`
    /// attribute the explanation, and a choice's values are the messages
    /// `rule-NAME-VALUE` ([`RuleOption::value_key`]).
    pub key: &'static str,
    pub kind: OptionKind,
    /// A short label for a form.
    pub label: &'static str,
    /// What the option changes, in one line, whatever its value.
    pub about: &'static str,
    /// A choice's values in words, in the order of its [`OptionKind::Choice`] list.
    labels: &'static [&'static str],
    pub code: CodeField,
    /// The expansion a part of it switches (`big_follower` needs
    /// `inns_cathedrals`): naming the option while the expansion is off is
    /// an error, whatever the value (expansions.md §5).
    pub needs: Option<Expansion>,
    get: fn(&Rules) -> OptionValue,
    put: fn(&mut Rules, OptionValue),
    /// The line [`Rules::explain`] says about it, when there is one.
    line: fn(&Rules) -> Option<String>,
}

impl fmt::Debug for RuleOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RuleOption").field("name", &self.name).field("kind", &self.kind).finish_non_exhaustive()
    }
}

impl RuleOption {
    /// The option by its record name.
    pub fn named(name: &str) -> Option<&'static RuleOption> {
        RULE_OPTIONS.iter().find(|o| o.name == name)
    }

    /// The option's value in a rule set.
    pub fn value(&self, rules: &Rules) -> OptionValue {
        (self.get)(rules)
    }

    /// The expansion the option belongs to: the expansion it turns on, or
    /// the one a part of which it switches.
    pub fn expansion(&self) -> Option<Expansion> {
        self.needs.or_else(|| Expansion::ALL.into_iter().find(|e| e.option() == self.name))
    }

    /// Its value in the preset's rule set.
    pub fn default_for(&self, preset: Preset) -> OptionValue {
        (self.get)(&Rules::preset(preset))
    }

    /// What [`Rules::explain`] says about it in this rule set, if anything.
    pub fn line(&self, rules: &Rules) -> Option<String> {
        (self.line)(rules)
    }

    /// The message key of a value in words (web/i18n/LANG.ftl): a choice's
    /// `rule-NAME-VALUE`, `rule-value-on` / `rule-value-off` for a flag,
    /// `rule-value-no-limit` for no table size, and `None` for a number or a
    /// size (said as they are).
    pub fn value_key(&self, value: OptionValue) -> Option<String> {
        match value {
            OptionValue::Flag(b) => Some(if b { "rule-value-on" } else { "rule-value-off" }.to_string()),
            OptionValue::Choice(w) => Some(format!("{}-{w}", self.key)),
            OptionValue::Table(None) => Some("rule-value-no-limit".to_string()),
            OptionValue::Count(_) | OptionValue::Table(Some(_)) => None,
        }
    }

    /// Every message key the option's words need: its label (with its
    /// `.about`) and each choice's value.
    pub fn message_keys(&self) -> Vec<String> {
        let mut keys = vec![self.key.to_string()];
        if let OptionKind::Choice(words) = self.kind {
            keys.extend(words.iter().filter_map(|&w| self.value_key(OptionValue::Choice(w))));
        }
        keys
    }

    /// A value in words, for people: `on`, `3 per city, per farm`, `2`, `7 × 5`, `no limit`.
    pub fn value_words(&self, value: OptionValue) -> String {
        match (self.kind, value) {
            (_, OptionValue::Flag(b)) => (if b { "on" } else { "off" }).into(),
            (OptionKind::Choice(words), OptionValue::Choice(w)) => {
                words.iter().position(|&x| x == w).and_then(|i| self.labels.get(i)).unwrap_or(&w).to_string()
            }
            (_, OptionValue::Choice(w)) => w.into(),
            (_, OptionValue::Count(n)) => n.to_string(),
            (_, OptionValue::Table(Some((w, h)))) => format!("{w} × {h}"),
            (_, OptionValue::Table(None)) => "no limit".into(),
        }
    }

    /// Reads a value in its text form (`per-city`, `true`, `on`, `2`, `7x5`,
    /// `none`), checking it against the option's kind.
    ///
    /// # Errors
    /// A value the option does not take.
    pub fn parse(&self, text: &str) -> Result<OptionValue, RulesError> {
        let bad = || RulesError::BadValue { option: self.name.to_string(), value: text.to_string() };
        match self.kind {
            OptionKind::Flag => parse_bool(text).map(OptionValue::Flag).ok_or_else(bad),
            OptionKind::Choice(words) => {
                words.iter().find(|&&w| w == text).map(|&w| OptionValue::Choice(w)).ok_or_else(bad)
            }
            OptionKind::Count { min, max } => {
                text.parse().ok().filter(|n| (min..=max).contains(n)).map(OptionValue::Count).ok_or_else(bad)
            }
            OptionKind::Table { .. } => match text {
                "none" | "off" | "null" => Ok(OptionValue::Table(None)),
                _ => {
                    let (w, h) = text.split_once(['x', 'X', ',']).ok_or_else(bad)?;
                    let w: u8 = w.trim().parse().map_err(|_| bad())?;
                    let h: u8 = h.trim().parse().map_err(|_| bad())?;
                    Ok(OptionValue::Table(Some((w, h))))
                }
            },
        }
    }

    /// Sets the option (a value of another kind changes nothing).
    pub fn set(&self, rules: &mut Rules, value: OptionValue) {
        let fits = matches!(
            (self.kind, value),
            (OptionKind::Flag, OptionValue::Flag(_))
                | (OptionKind::Count { .. }, OptionValue::Count(_))
                | (OptionKind::Table { .. }, OptionValue::Table(_))
        ) || matches!((self.kind, value), (OptionKind::Choice(words), OptionValue::Choice(w)) if words.contains(&w));
        if fits {
            (self.put)(rules, value);
        }
    }
}

fn flag(v: OptionValue) -> bool {
    matches!(v, OptionValue::Flag(true))
}

fn count(v: OptionValue) -> u8 {
    match v {
        OptionValue::Count(n) => n,
        _ => 1,
    }
}

fn choice<T: Copy>(all: &[T], names: &[&str], v: OptionValue) -> T {
    let i = match v {
        OptionValue::Choice(w) => names.iter().position(|&n| n == w).unwrap_or(0),
        _ => 0,
    };
    all[i]
}

const FARM_NAMES: [&str; 4] = ["per-farm", "per-farm-once", "per-city", "off"];
const UNPLACEABLE_NAMES: [&str; 2] = ["discard", "reshuffle"];
const FIRST_PLAYER_NAMES: [&str; 2] = ["seat0", "random"];

/// A flag option's line: `on` said when the flag is set, `off` when not.
macro_rules! flag_option {
    ($name:literal, $field:ident, $label:literal, $about:literal, bit $bit:literal, zero $zero:literal, $line:expr) => {
        RuleOption {
            name: $name,
            key: concat!("rule-", $name),
            kind: OptionKind::Flag,
            label: $label,
            about: $about,
            labels: &[],
            code: CodeField::Bits { byte: 2, shift: $bit, width: 1, zero: $zero },
            needs: None,
            get: |r| OptionValue::Flag(r.$field),
            put: |r, v| r.$field = flag(v),
            line: $line,
        }
    };
}

/// An expansion's flag, or a part of it (on by default; `needs` its
/// expansion), in the code's seventh byte.
macro_rules! expansion_option {
    ($name:literal, $field:ident, $label:literal, $about:literal, bit $bit:literal, $needs:expr, $line:expr) => {
        RuleOption {
            name: $name,
            key: concat!("rule-", $name),
            kind: OptionKind::Flag,
            label: $label,
            about: $about,
            labels: &[],
            code: CodeField::Bits { byte: 6, shift: $bit, width: 1, zero: $needs.is_some() },
            needs: $needs,
            get: |r| OptionValue::Flag(r.$field),
            put: |r, v| r.$field = flag(v),
            line: $line,
        }
    };
}

/// A part of an expansion's line: said only when the part is switched off
/// while its expansion is on.
fn part_off(on: bool, part: bool, line: &str) -> Option<String> {
    (on && !part).then(|| line.to_string())
}

/// Every rule option, in the order rules.md lists them, then the
/// expansions' (expansions.md §5).
pub static RULE_OPTIONS: [RuleOption; 21] = [
    RuleOption {
        name: "farms",
        key: "rule-farms",
        kind: OptionKind::Choice(&FARM_NAMES),
        label: "Farm scoring",
        about: "How farmers score at the end of the game.",
        labels: &[
            "3 per city, per farm",
            "3 per city, once per player",
            "4 per city, majority over all its farms",
            "no farmers",
        ],
        code: CodeField::Bits { byte: 1, shift: 2, width: 2, zero: false },
        needs: None,
        get: |r| OptionValue::Choice(r.farms.name()),
        put: |r, v| r.farms = choice(&FarmRule::ALL, &FARM_NAMES, v),
        line: |r| Some(format!("Farms: {}", r.farms.summary())),
    },
    flag_option!("small_city", small_city, "Small cities: a completed 2-tile city scores 2",
        "A completed city of two tiles scores 1 per tile and shield instead of 2.", bit 0, zero false,
        |r| r.small_city.then(|| "Small cities: a completed 2-tile city scores 2 points, not 4.".into())),
    flag_option!("river", river, "The River: the game starts with the 12 river tiles",
        "The 12 river tiles replace the start tile and are laid first.", bit 1, zero false,
        |r| r.river.then(|| "The River: the game starts with the 12 river tiles instead of the start tile.".into())),
    flag_option!("abbot", abbot, "The Abbot: an abbot for each player, gardens score",
        "Each player gets an abbot for cloisters and gardens, which may be recalled.", bit 2, zero false,
        |r| r.abbot.then(|| "The Abbot: each player has an abbot for cloisters and gardens, and may recall it.".into())),
    RuleOption {
        name: "hand",
        key: "rule-hand",
        kind: OptionKind::Count { min: 1, max: 3 },
        label: "Tiles in hand (1 = the usual single draw)",
        about: "How many tiles each player holds and chooses from.",
        labels: &[],
        code: CodeField::Bytes { byte: 3 },
        needs: None,
        get: |r| OptionValue::Count(r.hand),
        put: |r, v| r.hand = count(v),
        line: |r| {
            let seen = if r.hand_visible { "shown to everyone" } else { "hidden from the others" };
            (r.hand > 1)
                .then(|| format!("Hands: each player holds {} tiles, {seen}, and chooses which to play.", r.hand))
        },
    },
    flag_option!("hand_visible", hand_visible, "Hands are shown to everyone",
        "Tiles held in hand are shown to every player, not only their owner.", bit 3, zero false, |_| None),
    flag_option!("draw_at_turn_end", draw_at_turn_end, "Draw your next tile at the end of your turn",
        "You take your next tile at the end of your turn and see it while the others play.", bit 4, zero false,
        |r| r.draw_at_turn_end.then(|| "Players draw their next tile at the end of their turn.".into())),
    RuleOption {
        name: "unplaceable",
        key: "rule-unplaceable",
        kind: OptionKind::Choice(&UNPLACEABLE_NAMES),
        label: "A tile that fits nowhere",
        about: "What happens to a drawn tile that fits nowhere.",
        labels: &["is discarded", "goes back into the bag"],
        code: CodeField::Bits { byte: 1, shift: 5, width: 1, zero: false },
        needs: None,
        get: |r| OptionValue::Choice(r.unplaceable.name()),
        put: |r, v| r.unplaceable = choice(&[Unplaceable::Discard, Unplaceable::Reshuffle], &UNPLACEABLE_NAMES, v),
        line: |r| {
            (r.unplaceable == Unplaceable::Reshuffle)
                .then(|| "A tile that fits nowhere goes back into the bag instead of leaving the game.".into())
        },
    },
    flag_option!("hole_bonus_turn", hole_bonus_turn, "Filling a hole (four neighbours) earns another turn",
        "A tile laid with neighbours on all four sides earns another turn.", bit 5, zero false,
        |r| r.hole_bonus_turn.then(|| "Filling a hole (a tile with neighbours on all four sides) earns another turn.".into())),
    flag_option!("incomplete_scoring", incomplete_scoring, "Incomplete features score at the end",
        "Whether unfinished roads, cities, cloisters and gardens score at the end.", bit 6, zero true,
        |r| (!r.incomplete_scoring).then(|| "Incomplete roads, cities, cloisters and gardens score nothing at the end.".into())),
    RuleOption {
        name: "board_limit",
        key: "rule-board_limit",
        kind: OptionKind::Table { sizes: &[(5, 5), (7, 7), (9, 9), (11, 11), (13, 13)] },
        label: "Table size",
        about: "Every tile must lie within a W × H rectangle centred on the start tile.",
        labels: &[],
        code: CodeField::Bytes { byte: 4 },
        needs: None,
        get: |r| OptionValue::Table(r.board_limit),
        put: |r, v| {
            if let OptionValue::Table(t) = v {
                r.board_limit = t;
            }
        },
        line: |r| r.board_limit.map(|(w, h)| format!("The table is {w} by {h} tiles, centred on the start tile.")),
    },
    flag_option!("border_completes", border_completes, "The table's edge closes roads and cities (with a table size)",
        "With a table size: roads and cities reaching the table's edge count as closed there.", bit 7, zero false,
        |r| (r.border_completes && r.board_limit.is_some())
            .then(|| "Roads and cities that reach the table's edge count as closed there.".into())),
    RuleOption {
        name: "first_player",
        key: "rule-first_player",
        kind: OptionKind::Choice(&FIRST_PLAYER_NAMES),
        label: "First player",
        about: "Who plays first: the first seat, or a player chosen at random.",
        labels: &["the first seat", "chosen at random"],
        code: CodeField::Bits { byte: 1, shift: 4, width: 1, zero: false },
        needs: None,
        get: |r| OptionValue::Choice(r.first_player.name()),
        put: |r, v| r.first_player = choice(&[FirstPlayer::Seat0, FirstPlayer::Random], &FIRST_PLAYER_NAMES, v),
        line: |r| (r.first_player == FirstPlayer::Random).then(|| "The first player is chosen at random.".into()),
    },
    expansion_option!("inns_cathedrals", inns_cathedrals, "Inns & Cathedrals: inns, cathedrals and a big follower each",
        "Adds the 18 tiles of Inns & Cathedrals: inns double a finished road, cathedrals triple a finished city, and each player has a big follower.",
        bit 0, None::<Expansion>,
        |r| r.inns_cathedrals.then(|| "Inns & Cathedrals: 18 more tiles; inns and cathedrals pay more when finished and nothing when not; each player has a big follower worth two.".into())),
    expansion_option!("traders_builders", traders_builders, "Traders & Builders: goods, a builder and a pig each",
        "Adds the 24 tiles of Traders & Builders: finishing a city with goods earns its tokens, and each player has a builder and a pig.",
        bit 1, None::<Expansion>,
        |r| r.traders_builders.then(|| "Traders & Builders: 24 more tiles; finishing a city takes its goods; each player has a builder (a second tile) and a pig (fatter farms).".into())),
    expansion_option!("big_follower", big_follower, "Big followers (Inns & Cathedrals)",
        "Each player's big follower counts as two followers in every majority.", bit 2, Some(Expansion::InnsCathedrals),
        |r| part_off(r.inns_cathedrals, r.big_follower, "Inns & Cathedrals without big followers.")),
    expansion_option!("inns", inns, "Inns (Inns & Cathedrals)",
        "A finished road with an inn scores 2 a tile; an unfinished one nothing.", bit 3, Some(Expansion::InnsCathedrals),
        |r| part_off(r.inns_cathedrals, r.inns, "Inns & Cathedrals without inns: an inn is scenery.")),
    expansion_option!("cathedrals", cathedrals, "Cathedrals (Inns & Cathedrals)",
        "A finished city with a cathedral scores 3 a tile and shield; an unfinished one nothing.", bit 4,
        Some(Expansion::InnsCathedrals),
        |r| part_off(r.inns_cathedrals, r.cathedrals, "Inns & Cathedrals without cathedrals: a cathedral tile is a plain city tile.")),
    expansion_option!("builder", builder, "Builders (Traders & Builders)",
        "A builder beside your follower gives you a second tile whenever you extend its road or city.", bit 5,
        Some(Expansion::TradersBuilders),
        |r| part_off(r.traders_builders, r.builder, "Traders & Builders without builders.")),
    expansion_option!("pig", pig, "Pigs (Traders & Builders)",
        "A pig beside your farmer makes each finished city pay you 1 more through that farm.", bit 6,
        Some(Expansion::TradersBuilders),
        |r| part_off(r.traders_builders, r.pig, "Traders & Builders without pigs.")),
    expansion_option!("goods", goods, "Goods (Traders & Builders)",
        "Finishing a city earns its goods tokens; the most of each kind scores 10 at the end.", bit 7,
        Some(Expansion::TradersBuilders),
        |r| part_off(r.traders_builders, r.goods, "Traders & Builders without goods: a goods symbol is scenery.")),
];

impl Rules {
    /// The rule set in a sentence: its preset, how farmers score and
    /// whether small cities score less, as they are in force (options
    /// changed from the preset included), e.g. "Today's rules, with house
    /// rules: farmers score 4 per completed city, to the most farmers over
    /// all its farms."
    pub fn headline(&self) -> String {
        let farms = match self.farms {
            FarmRule::PerFarm => "farmers score 3 per completed city",
            FarmRule::PerFarmOnce => "farmers score 3 per completed city, each city once per player",
            FarmRule::PerCity => "farmers score 4 per completed city, to the most farmers over all its farms",
            FarmRule::Off => "no farmers",
        };
        let small = if self.small_city { "; small cities score 2" } else { "" };
        let changed = if *self == Rules::preset(self.preset) { "" } else { ", with house rules" };
        format!("{}{changed}: {farms}{small}.", self.preset.title())
    }

    /// The rule set a preset stands for (rules.md, "Presets"): every house
    /// rule off, no River, no Abbot.
    pub const fn preset(preset: Preset) -> Rules {
        let (farms, small_city) = match preset {
            Preset::Standard | Preset::BigBox => (FarmRule::PerFarm, false),
            Preset::Beginner => (FarmRule::Off, false),
            Preset::FirstEdition => (FarmRule::PerCity, true),
        };
        let big_box = matches!(preset, Preset::BigBox);
        Rules {
            preset,
            farms,
            small_city,
            river: big_box,
            abbot: big_box,
            hand: 1,
            hand_visible: false,
            draw_at_turn_end: false,
            unplaceable: Unplaceable::Discard,
            hole_bonus_turn: false,
            incomplete_scoring: true,
            board_limit: None,
            border_completes: false,
            first_player: FirstPlayer::Seat0,
            inns_cathedrals: big_box,
            traders_builders: big_box,
            big_follower: true,
            inns: true,
            cathedrals: true,
            builder: true,
            pig: true,
            goods: true,
        }
    }

    /// Whether an expansion is in play.
    pub const fn has(&self, expansion: Expansion) -> bool {
        match expansion {
            Expansion::InnsCathedrals => self.inns_cathedrals,
            Expansion::TradersBuilders => self.traders_builders,
        }
    }

    /// Whether any expansion is in play.
    #[inline]
    pub const fn expansions(&self) -> bool {
        self.inns_cathedrals || self.traders_builders
    }

    /// The big follower is played (Inns & Cathedrals, not switched off).
    pub const fn has_big_follower(&self) -> bool {
        self.inns_cathedrals && self.big_follower
    }

    /// Inns double a completed road (Inns & Cathedrals, not switched off).
    pub const fn has_inns(&self) -> bool {
        self.inns_cathedrals && self.inns
    }

    /// Cathedrals triple a completed city (Inns & Cathedrals, not switched off).
    pub const fn has_cathedrals(&self) -> bool {
        self.inns_cathedrals && self.cathedrals
    }

    /// The builder is played (Traders & Builders, not switched off).
    pub const fn has_builder(&self) -> bool {
        self.traders_builders && self.builder
    }

    /// The pig is played (Traders & Builders, not switched off).
    pub const fn has_pig(&self) -> bool {
        self.traders_builders && self.pig
    }

    /// Goods symbols give tokens (Traders & Builders, not switched off).
    pub const fn has_goods(&self) -> bool {
        self.traders_builders && self.goods
    }

    /// Whether players hold tiles between turns (a hand of more than one,
    /// or a tile drawn at the end of one's turn).
    pub const fn hand_mode(&self) -> bool {
        self.hand > 1 || self.draw_at_turn_end
    }

    /// Sets one option by its record name from its text form (`per-city`,
    /// `true`, `2`, `7x5`), as the command line does; `preset` starts over
    /// from a preset.
    ///
    /// # Errors
    /// An unknown option or a value it does not take.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        if key == "preset" {
            let bad = || RulesError::BadValue { option: key.to_string(), value: value.to_string() };
            *self = Rules::preset(Preset::from_name(value).ok_or_else(bad)?);
            return Ok(());
        }
        let option = RuleOption::named(key).ok_or_else(|| RulesError::UnknownOption(key.to_string()))?;
        let value = option.parse(value)?;
        option.set(self, value);
        Ok(())
    }

    /// Checks that the options make sense together.
    ///
    /// # Errors
    /// A board limit that is not odd by odd (or too large), or
    /// `border_completes` without a board limit.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !(1..=3).contains(&self.hand) {
            return Err(RulesError::BadValue { option: "hand".into(), value: self.hand.to_string() });
        }
        if let Some((w, h)) = self.board_limit {
            if w % 2 == 0 || h % 2 == 0 || w > 121 || h > 121 {
                return Err(RulesError::BadValue { option: "board_limit".into(), value: format!("[{w}, {h}]") });
            }
        }
        if self.border_completes && self.board_limit.is_none() {
            return Err(RulesError::Conflict("border_completes needs board_limit".into()));
        }
        // A part of an expansion can only be switched off while the expansion
        // is on (the loop only to name the part: a game restarts often).
        let parts_on = |on: bool, parts: [bool; 3]| on || parts == [true; 3];
        if parts_on(self.inns_cathedrals, [self.big_follower, self.inns, self.cathedrals])
            && parts_on(self.traders_builders, [self.builder, self.pig, self.goods])
        {
            return Ok(());
        }
        for o in &RULE_OPTIONS {
            if let Some(expansion) = o.needs {
                if !self.has(expansion) && o.value(self) != OptionValue::Flag(true) {
                    return Err(RulesError::NeedsExpansion { option: o.name, expansion });
                }
            }
        }
        Ok(())
    }

    /// Checks that every option named in a rule set's text (`names`) may
    /// be named with these rules: a part of an expansion (`big_follower`,
    /// `builder`…) only with its expansion on, whatever its value
    /// (expansions.md §5).
    ///
    /// # Errors
    /// The first option named without its expansion.
    pub fn check_named<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> Result<(), RulesError> {
        for name in names {
            if let Some(o) = RuleOption::named(name) {
                if let Some(expansion) = o.needs.filter(|&e| !self.has(e)) {
                    return Err(RulesError::NeedsExpansion { option: o.name, expansion });
                }
            }
        }
        Ok(())
    }

    /// Parses `preset[,key=value…]`, e.g. `first-edition,small_city=false`.
    ///
    /// # Errors
    /// An unknown preset or option, a bad value, or options that conflict.
    pub fn parse(spec: &str) -> Result<Rules, RulesError> {
        let mut rules = Rules::default();
        let mut named = Vec::new();
        for (i, part) in spec.split(',').map(str::trim).filter(|s| !s.is_empty()).enumerate() {
            match part.split_once('=') {
                Some((k, v)) => {
                    rules.set(k.trim(), v.trim())?;
                    named.push(k.trim());
                }
                None if i == 0 => {
                    rules = Rules::preset(
                        Preset::from_name(part).ok_or_else(|| RulesError::UnknownPreset(part.to_string()))?,
                    )
                }
                None => return Err(RulesError::UnknownOption(part.to_string())),
            }
        }
        rules.check_named(named)?;
        rules.validate()?;
        Ok(rules)
    }

    /// The options that differ from the preset, as `(name, text value)`.
    pub fn changes(&self) -> Vec<(&'static str, String)> {
        self.changed_options().map(|o| (o.name, o.value(self).text())).collect()
    }

    /// The options that differ from the preset.
    pub fn changed_options(&self) -> impl Iterator<Item = &'static RuleOption> + '_ {
        let base = Rules::preset(self.preset);
        RULE_OPTIONS.iter().filter(move |o| o.value(self) != o.value(&base))
    }

    /// The rule set in plain words, one line per point.
    pub fn explain(&self) -> Vec<String> {
        let mut lines = vec![format!("Preset: {}.", self.preset.name())];
        lines.extend(RULE_OPTIONS.iter().filter_map(|o| o.line(self)));
        lines
    }
}

fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "on" | "yes" => Some(true),
        "false" | "off" | "no" => Some(false),
        _ => None,
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.preset.name())?;
        for (k, v) in self.changes() {
            write!(f, ",{k}={v}")?;
        }
        Ok(())
    }
}

/// A rule set that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    UnknownPreset(String),
    UnknownOption(String),
    BadValue {
        option: String,
        value: String,
    },
    Conflict(String),
    /// A part of an expansion named while the expansion is off.
    NeedsExpansion {
        option: &'static str,
        expansion: Expansion,
    },
    /// A rule-set code that does not decode.
    BadCode(String),
    /// A rule-set code of a later version than this engine reads.
    LaterCode(u8),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownPreset(p) => write!(f, "unknown preset \"{p}\""),
            RulesError::UnknownOption(o) => write!(f, "unknown rule option \"{o}\""),
            RulesError::BadValue { option, value } => write!(f, "rule option {option} cannot be {value}"),
            RulesError::Conflict(m) => write!(f, "{m}"),
            RulesError::NeedsExpansion { option, expansion } => write!(f, "option \"{option}\" needs {expansion}"),
            RulesError::BadCode(m) => write!(f, "not a rule-set code: {m}"),
            RulesError::LaterCode(v) => {
                write!(f, "a rule-set code of version {v}, from a later version of the game than this one")
            }
        }
    }
}

impl std::error::Error for RulesError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_rules_md() {
        assert_eq!(Rules::default().farms, FarmRule::PerFarm);
        assert!(!Rules::default().small_city);
        assert_eq!(Rules::preset(Preset::Beginner).farms, FarmRule::Off);
        let first = Rules::preset(Preset::FirstEdition);
        assert_eq!((first.farms, first.small_city), (FarmRule::PerCity, true));
        assert_eq!(Rules::default().hand, 1);
        assert!(Rules::default().incomplete_scoring);
    }

    #[test]
    fn the_headline_says_the_farm_rule_in_force() {
        assert_eq!(Preset::Standard.summary(), "Today's rules: farmers score 3 per completed city.");
        assert_eq!(Preset::Beginner.summary(), "A gentle first game: no farmers.");
        assert_eq!(
            Preset::FirstEdition.summary(),
            "The 2000 rules: farmers score 4 per completed city, to the most farmers over all its farms; small cities score 2."
        );
        // Farm scoring set to 4 per city on today's rules: the headline says 4, not 3.
        let four = Rules::parse("standard,farms=per-city").unwrap().headline();
        assert_eq!(
            four,
            "Today's rules, with house rules: farmers score 4 per completed city, to the most farmers over all its farms."
        );
        assert!(!four.contains(" 3 "), "{four}");
        assert_eq!(
            Rules::parse("beginner,farms=per-farm-once").unwrap().headline(),
            "A gentle first game, with house rules: farmers score 3 per completed city, each city once per player."
        );
        // A change that is not about farms still says the rules are changed.
        assert!(Rules::parse("standard,river=true")
            .unwrap()
            .headline()
            .starts_with("Today's rules, with house rules: farmers score 3"));
    }

    #[test]
    fn every_option_is_described_once_and_round_trips() {
        for (i, o) in RULE_OPTIONS.iter().enumerate() {
            assert!(RULE_OPTIONS[..i].iter().all(|p| p.name != o.name), "{} twice", o.name);
            assert!(!o.label.is_empty() && !o.about.is_empty());
            if let OptionKind::Choice(words) = o.kind {
                assert_eq!(o.labels.len(), words.len(), "{}: a label for every value", o.name);
            }
            // Every value the option takes reads back from its text form and shows in `changes`.
            let values: Vec<OptionValue> = match o.kind {
                OptionKind::Flag => vec![OptionValue::Flag(false), OptionValue::Flag(true)],
                OptionKind::Choice(words) => words.iter().map(|&w| OptionValue::Choice(w)).collect(),
                OptionKind::Count { min, max } => (min..=max).map(OptionValue::Count).collect(),
                OptionKind::Table { sizes } => {
                    std::iter::once(None).chain(sizes.iter().copied().map(Some)).map(OptionValue::Table).collect()
                }
            };
            for v in values {
                assert_eq!(o.parse(&v.text()), Ok(v), "{}", o.name);
                let mut rules = Rules::preset(Preset::FirstEdition);
                if o.name == "border_completes" {
                    rules.board_limit = Some((7, 7));
                }
                match o.needs {
                    Some(Expansion::InnsCathedrals) => rules.inns_cathedrals = true,
                    Some(Expansion::TradersBuilders) => rules.traders_builders = true,
                    None => {}
                }
                o.set(&mut rules, v);
                assert_eq!(o.value(&rules), v);
                let listed = rules.changes().iter().any(|(name, text)| *name == o.name && *text == v.text());
                assert_eq!(listed, v != o.default_for(Preset::FirstEdition), "{} = {}", o.name, v.text());
                assert_eq!(Rules::parse(&rules.to_string()), Ok(rules));
                assert_eq!(Rules::from_code(&rules.to_code()), Ok(rules));
            }
            assert!(matches!(o.parse("maybe"), Err(RulesError::BadValue { .. })));
        }
    }

    #[test]
    fn parse_and_display_round_trip() {
        let r = Rules::parse("first-edition,small_city=false,river=true,hand=2,board_limit=7x5,border_completes=true")
            .unwrap();
        assert_eq!(r.farms, FarmRule::PerCity);
        assert!(!r.small_city && r.river && r.border_completes);
        assert_eq!((r.hand, r.board_limit), (2, Some((7, 5))));
        assert_eq!(Rules::parse(&r.to_string()).unwrap(), r);
        assert_eq!(Rules::parse("farms=off").unwrap().farms, FarmRule::Off);
        assert!(matches!(Rules::parse("nope"), Err(RulesError::UnknownPreset(_))));
        assert!(matches!(Rules::parse("standard,farms=lots"), Err(RulesError::BadValue { .. })));
        assert!(matches!(Rules::parse("hand=4"), Err(RulesError::BadValue { .. })));
        assert!(matches!(Rules::parse("board_limit=6x5"), Err(RulesError::BadValue { .. })));
        assert!(matches!(Rules::parse("border_completes=true"), Err(RulesError::Conflict(_))));
    }

    #[test]
    fn the_big_box_is_standard_with_four_expansions() {
        let big = Rules::preset(Preset::BigBox);
        let plus = Rules::parse("standard,river=true,abbot=true,inns_cathedrals=true,traders_builders=true").unwrap();
        assert_eq!(Rules { preset: Preset::Standard, ..big }, plus);
        assert_eq!(Rules::parse("big-box").unwrap(), big);
        assert!(big.has_big_follower() && big.has_inns() && big.has_cathedrals());
        assert!(big.has_builder() && big.has_pig() && big.has_goods());
        assert_eq!(big.to_string(), "big-box");
        assert_eq!(Preset::BigBox.summary(), "The Big Box: farmers score 3 per completed city.");
        // Without them, no part of an expansion is in play.
        let plain = Rules::default();
        assert!(!plain.has_big_follower() && !plain.has_builder() && !plain.has_goods() && !plain.expansions());
    }

    /// expansions.md §5: a part of an expansion named while the expansion
    /// is off is an error, whatever its value; with it on, it switches.
    #[test]
    fn a_part_needs_its_expansion() {
        for spec in ["standard,pig=false", "standard,pig=true", "big-box,traders_builders=false,goods=true"] {
            let e = Rules::parse(spec).unwrap_err();
            assert!(matches!(e, RulesError::NeedsExpansion { expansion: Expansion::TradersBuilders, .. }), "{spec}");
        }
        assert_eq!(
            Rules::parse("standard,big_follower=false").unwrap_err().to_string(),
            "option \"big_follower\" needs inns_cathedrals"
        );
        let r = Rules::parse("standard,inns_cathedrals=true,inns=false").unwrap();
        assert!(r.inns_cathedrals && !r.has_inns() && r.has_cathedrals());
        assert_eq!(r.to_string(), "standard,inns_cathedrals=true,inns=false");
        assert!(r.explain().iter().any(|l| l.contains("an inn is scenery")), "{:?}", r.explain());
        // Turning the expansion off after a part was switched off is refused too.
        let mut off = r;
        off.inns_cathedrals = false;
        assert!(off.validate().is_err());
    }
}

/// Rule-set codes: a compact, URL-safe form of a rule set to share, e.g. in
/// an invite link. Six bytes (version, enums, flags, hand, table size) in
/// unpadded base64url.
mod code {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;

    use super::{CodeField, OptionKind, OptionValue, Preset, Rules, RulesError, RULE_OPTIONS};

    /// The code version this engine writes; codes of a later one are refused as such.
    pub const VERSION: u8 = 1;

    /// `width` low bits set.
    const fn mask(width: u8) -> u8 {
        ((1u16 << width) - 1) as u8
    }

    /// The bytes of a code: six, and a seventh for the expansions.
    const BYTES: usize = 7;

    /// The bits of each byte that the preset and the options use.
    fn used_bits() -> [u8; BYTES] {
        let mut used = [0xff, 0b11, 0, 0, 0, 0, 0];
        for o in &RULE_OPTIONS {
            match (o.code, o.kind) {
                (CodeField::Bits { byte, shift, width, .. }, _) => used[byte] |= mask(width) << shift,
                (CodeField::Bytes { byte }, OptionKind::Table { .. }) => {
                    used[byte] = 0xff;
                    used[byte + 1] = 0xff;
                }
                (CodeField::Bytes { byte }, _) => used[byte] = 0xff,
            }
        }
        used
    }

    impl Rules {
        /// The rule set's code (round-trips through [`Rules::from_code`]).
        pub fn to_code(&self) -> String {
            let preset = Preset::ALL.iter().position(|&p| p == self.preset).unwrap_or(0) as u8;
            let mut bytes = [VERSION, preset, 0, 0, 0, 0, 0];
            for o in &RULE_OPTIONS {
                match (o.code, o.value(self)) {
                    (CodeField::Bits { byte, shift, zero, .. }, OptionValue::Flag(on)) => {
                        bytes[byte] |= u8::from(on != zero) << shift;
                    }
                    (CodeField::Bits { byte, shift, .. }, OptionValue::Choice(word)) => {
                        let words = match o.kind {
                            OptionKind::Choice(words) => words,
                            _ => &[],
                        };
                        bytes[byte] |= (words.iter().position(|&w| w == word).unwrap_or(0) as u8) << shift;
                    }
                    (CodeField::Bytes { byte }, OptionValue::Count(n)) => bytes[byte] = n,
                    (CodeField::Bytes { byte }, OptionValue::Table(t)) => {
                        let (w, h) = t.unwrap_or((0, 0));
                        bytes[byte] = w;
                        bytes[byte + 1] = h;
                    }
                    _ => {}
                }
            }
            // Without the expansions, the six bytes codes have always had.
            let len = if bytes[6] == 0 { 6 } else { BYTES };
            URL_SAFE_NO_PAD.encode(&bytes[..len])
        }

        /// Reads a rule-set code.
        ///
        /// # Errors
        /// Text that is not a code of this version, or options that do not fit together.
        pub fn from_code(code: &str) -> Result<Rules, RulesError> {
            let bad = |m: &str| RulesError::BadCode(m.to_string());
            let read = URL_SAFE_NO_PAD.decode(code.trim()).map_err(|_| bad("not base64url"))?;
            // Six bytes, or seven with the expansions' byte set (a code has one reading).
            if !(read.len() == 6 || read.len() == BYTES && read[6] != 0) {
                return Err(bad("wrong length"));
            }
            let mut bytes = [0u8; BYTES];
            bytes[..read.len()].copy_from_slice(&read);
            if bytes[0] > VERSION {
                return Err(RulesError::LaterCode(bytes[0]));
            }
            if bytes[0] != VERSION {
                return Err(bad("unknown version"));
            }
            let preset = *Preset::ALL.get((bytes[1] & 3) as usize).ok_or_else(|| bad("unknown preset"))?;
            if bytes.iter().zip(used_bits()).any(|(b, used)| b & !used != 0) {
                return Err(bad("unknown options"));
            }
            let mut rules = Rules::preset(preset);
            for o in &RULE_OPTIONS {
                let value = match (o.code, o.kind) {
                    (CodeField::Bits { byte, shift, width, zero }, kind) => {
                        let v = (bytes[byte] >> shift) & mask(width);
                        match kind {
                            OptionKind::Choice(words) => {
                                OptionValue::Choice(words.get(v as usize).ok_or_else(|| bad("unknown option value"))?)
                            }
                            _ => OptionValue::Flag((v != 0) != zero),
                        }
                    }
                    (CodeField::Bytes { byte }, OptionKind::Table { .. }) => {
                        let (w, h) = (bytes[byte], bytes[byte + 1]);
                        OptionValue::Table((w != 0 || h != 0).then_some((w, h)))
                    }
                    (CodeField::Bytes { byte }, _) => OptionValue::Count(bytes[byte]),
                };
                o.set(&mut rules, value);
            }
            rules.validate()?;
            Ok(rules)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn every_option_has_its_own_bits() {
            let mut seen = [0u8; BYTES];
            seen[0] = 0xff;
            seen[1] = 0b11;
            for o in &RULE_OPTIONS {
                let mut mine = [0u8; BYTES];
                match (o.code, o.kind) {
                    (CodeField::Bits { byte, shift, width, .. }, _) => mine[byte] = mask(width) << shift,
                    (CodeField::Bytes { byte }, OptionKind::Table { .. }) => {
                        (mine[byte], mine[byte + 1]) = (0xff, 0xff)
                    }
                    (CodeField::Bytes { byte }, _) => mine[byte] = 0xff,
                }
                for (s, m) in seen.iter_mut().zip(mine) {
                    assert_eq!(*s & m, 0, "{} shares bits", o.name);
                    *s |= m;
                }
            }
        }

        #[test]
        fn codes_round_trip() {
            for spec in [
                "standard",
                "beginner",
                "first-edition,river=true,abbot=true",
                "standard,hand=3,hand_visible=true,unplaceable=reshuffle,first_player=random",
                "first-edition,farms=per-farm-once,board_limit=9x7,border_completes=true,incomplete_scoring=false",
                "standard,draw_at_turn_end=true,hole_bonus_turn=true",
            ] {
                let rules = Rules::parse(spec).unwrap();
                let code = rules.to_code();
                assert!(code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'), "{code}");
                assert_eq!(Rules::from_code(&code).unwrap(), rules, "{spec} → {code}");
            }
            assert!(Rules::from_code("!!").is_err());
            let later = URL_SAFE_NO_PAD.encode([VERSION + 1, 0, 0, 1, 0, 0]);
            assert_eq!(Rules::from_code(&later), Err(RulesError::LaterCode(VERSION + 1)));
            let unknown_bit = URL_SAFE_NO_PAD.encode([VERSION, 1 << 7, 0, 1, 0, 0]);
            assert!(matches!(Rules::from_code(&unknown_bit), Err(RulesError::BadCode(_))));
            assert!(Rules::from_code("AQAAAAAA").is_err(), "a hand of 0 is refused");
        }

        /// The codes of rule sets without the expansions are what they were
        /// before the expansions came (pinned from that engine), and read
        /// back to the same rules.
        #[test]
        fn old_codes_are_unchanged() {
            for (spec, code) in [
                ("standard", "AQAAAQAA"),
                ("beginner", "AQ0AAQAA"),
                ("first-edition", "AQoBAQAA"),
                ("standard,river=true,abbot=true", "AQAGAQAA"),
                (
                    "first-edition,farms=per-farm-once,board_limit=9x7,border_completes=true,incomplete_scoring=false",
                    "AQbBAQkH",
                ),
                ("standard,hand=3,hand_visible=true,unplaceable=reshuffle,first_player=random", "ATAIAwAA"),
                ("standard,draw_at_turn_end=true,hole_bonus_turn=true,small_city=true", "AQAxAQAA"),
                ("beginner,river=true,farms=per-city", "AQkCAQAA"),
            ] {
                let rules = Rules::parse(spec).unwrap();
                assert_eq!(rules.to_code(), code, "{spec}");
                assert_eq!(Rules::from_code(code), Ok(rules), "{spec}");
            }
        }

        #[test]
        fn expansion_codes_have_a_seventh_byte_and_round_trip() {
            for spec in [
                "big-box",
                "standard,inns_cathedrals=true",
                "standard,traders_builders=true,pig=false,goods=false",
                "first-edition,inns_cathedrals=true,traders_builders=true,big_follower=false,inns=false,cathedrals=false,builder=false",
                "big-box,river=false,abbot=false,farms=per-city",
            ] {
                let rules = Rules::parse(spec).unwrap();
                let code = rules.to_code();
                assert_eq!(URL_SAFE_NO_PAD.decode(&code).unwrap().len(), 7, "{spec}");
                assert_eq!(Rules::from_code(&code), Ok(rules), "{spec} → {code}");
            }
            // Seven bytes whose seventh is 0 are not a code (six are).
            let padded = URL_SAFE_NO_PAD.encode([VERSION, 0, 0, 1, 0, 0, 0]);
            assert!(matches!(Rules::from_code(&padded), Err(RulesError::BadCode(_))));
            // A part switched off without its expansion is refused.
            let part_alone = URL_SAFE_NO_PAD.encode([VERSION, 0, 0, 1, 0, 0, 1 << 6]);
            assert!(matches!(Rules::from_code(&part_alone), Err(RulesError::NeedsExpansion { option: "pig", .. })));
        }
    }
}

/// A part of a rule set's summary for players: setup, a turn, each feature,
/// the end (what a rules page shows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub title: &'static str,
    pub lines: Vec<String>,
}

impl Rules {
    /// The whole game under these rules, in plain words, a few lines per
    /// part: what a table reads to learn or check the rules it plays by.
    ///
    /// ```
    /// use carcassonne::Rules;
    /// let rules = Rules::parse("first-edition,river=true").unwrap();
    /// let summary = rules.summary();
    /// assert_eq!(summary[0].title, "Setup");
    /// assert!(summary[0].lines[0].contains("river"));
    /// ```
    pub fn summary(&self) -> Vec<Section> {
        let s = |t: &str| t.to_string();
        let farmers = self.farms != FarmRule::Off;
        let land = 71 + 18 * self.inns_cathedrals as u32 + 24 * self.traders_builders as u32;
        let mut setup = vec![if self.river {
            format!("The spring starts the table; the other 11 river tiles are drawn first (the lake last of them), then the {land} land tiles.")
        } else {
            format!("The start tile lies face up in the middle of the table; the other {land} tiles are shuffled face down.")
        }];
        let mut figures = vec!["7 followers"];
        if self.has_big_follower() {
            figures.push("a big follower");
        }
        if self.abbot {
            figures.push("an abbot");
        }
        if self.has_builder() {
            figures.push("a builder");
        }
        if self.has_pig() && self.farms != FarmRule::Off {
            figures.push("a pig");
        }
        let last = figures.pop().unwrap_or_default();
        setup.push(if figures.is_empty() {
            format!("Each player has {last}.")
        } else {
            format!("Each player has {} and {last}.", figures.join(", "))
        });
        if self.hand > 1 {
            let seen = if self.hand_visible { "shown to everyone" } else { "seen only by their owner" };
            setup.push(format!("Each player draws a hand of {} tiles, {seen}.", self.hand));
        } else if self.draw_at_turn_end {
            setup.push(s("Each player draws their first tile before play begins."));
        }
        if let Some((w, h)) = self.board_limit {
            setup
                .push(format!("The table is {w} by {h} tiles, centred on the start tile: no tile may lie outside it."));
        }
        setup.push(match self.first_player {
            FirstPlayer::Seat0 => s("The first seat plays first."),
            FirstPlayer::Random => s("The first player is chosen at random."),
        });

        let mut turn = vec![if self.hand > 1 {
            format!("Choose one of your {} tiles and lay it touching the table, every shared edge matching: city to city, road to road, field to field.", self.hand)
        } else if self.draw_at_turn_end {
            s("Lay the tile you drew at the end of your last turn touching the table, every shared edge matching: city to city, road to road, field to field.")
        } else {
            s("Draw a tile and lay it touching the table, every shared edge matching: city to city, road to road, field to field.")
        }];
        turn.push(match self.unplaceable {
            Unplaceable::Discard => s("A tile that fits nowhere leaves the game, and another is drawn."),
            Unplaceable::Reshuffle => s("A tile that fits nowhere goes back into the bag, and another is drawn."),
        });
        turn.push(if farmers {
            s("Then you may put one follower on a road, city, cloister or field of that tile, if no follower stands on that whole feature yet.")
        } else {
            s("Then you may put one follower on a road, city or cloister of that tile, if no follower stands on that whole feature yet. Fields take no followers.")
        });
        if self.has_big_follower() {
            turn.push(s("Or put your big follower there the same way: it counts as two followers in every majority, but scores no more (not on a garden)."));
        }
        if self.abbot {
            turn.push(s("Or put your abbot on its cloister or garden; or, instead of placing anything, take your abbot back, scoring 1 + the tiles around it."));
        }
        if self.has_builder() {
            turn.push(s("Or put your builder on a road or city of that tile that holds one of your followers (and that the tile does not finish). Whenever you extend the road or city of your builder, you play a second tile right after: draw, lay, deploy and score again (never a third)."));
        }
        if self.has_pig() && farmers {
            turn.push(s(
                "Or put your pig in a field of that tile whose farm holds one of your farmers. It stays to the end.",
            ));
        }
        turn.push(s("Roads, cities and cloisters your tile completes score at once, and their followers come home."));
        if self.hole_bonus_turn {
            turn.push(s("A tile laid with neighbours on all four sides fills a hole and earns you another turn."));
        }
        if self.hand > 1 {
            turn.push(format!("Draw back up to {} tiles at the end of your turn.", self.hand));
        } else if self.draw_at_turn_end {
            turn.push(s("Draw your next tile at the end of your turn: you see it while the others play."));
        }

        let edge = if self.border_completes { ", or reaches the table's edge" } else { "" };
        let mut roads = vec![
            format!("A road is complete when both ends stop at a crossing, a city or a cloister, or it closes a loop{edge}."),
            s("It scores 1 point per tile to the player with the most thieves on it; tied players each score in full."),
        ];
        if self.has_inns() {
            roads.push(s("A road with an inn beside it scores 2 points per tile when finished, and nothing if it is still open at the end."));
        }
        let mut cities = vec![
            format!("A city is complete when its walls close all round{edge}."),
            s("It scores 2 points per tile and 2 per shield to the player with the most knights in it; tied players each score in full."),
        ];
        if self.small_city {
            cities.push(s("Small cities: a completed city of just 2 tiles scores 1 per tile and per shield instead."));
        }
        if self.has_cathedrals() {
            cities.push(s("A city with a cathedral scores 3 points per tile and per shield when finished, and nothing if it is still open at the end."));
        }
        if self.has_goods() {
            cities.push(s("Whoever lays the tile that finishes a city takes one goods token for each wine, wheat or cloth symbol in it, whoever holds the city."));
        }
        let mut cloisters =
            vec![s("A cloister is complete when the 8 tiles around it are laid: 9 points to its monk.")];
        if self.abbot {
            cloisters.push(s("Gardens score just like cloisters, but only an abbot may stand on one."));
        }
        let farms = if farmers {
            let mut farms = vec![
                s("A farm is a stretch of field, bounded by roads, cities, the river and the table's edge. Farmers stay until the end."),
                format!("At the end: {}", self.farms.summary()),
                s(self.farms.example()),
            ];
            if self.has_pig() {
                farms.push(s(
                    "A player who wins a farm with their own pig in it gets 1 more point for each city it pays them.",
                ));
            }
            farms
        } else {
            vec![s("No farmers are played: fields never score."), s(self.farms.example())]
        };
        let mut end = vec![if self.hand_mode() {
            s("The game ends when the bag and every hand are empty.")
        } else {
            s("The game ends after the last tile is laid.")
        }];
        end.push(if self.incomplete_scoring {
            let gardens = if self.abbot { " and gardens" } else { "" };
            format!("Unfinished roads then score 1 per tile, unfinished cities 1 per tile and per shield, unfinished cloisters{gardens} 1 + the tiles around them.")
        } else {
            s("Unfinished roads, cities, cloisters and gardens score nothing.")
        });
        if self.incomplete_scoring && (self.has_inns() || self.has_cathedrals()) {
            end.push(s("An unfinished road with an inn, or city with a cathedral, scores nothing."));
        }
        if farmers {
            end.push(s("Then the farms score, as above."));
        }
        if self.has_goods() {
            end.push(s("For each kind of goods, the player with the most tokens scores 10 (all tied players do; nobody scores a kind nobody holds)."));
        }
        end.push(s("The highest total wins; tied players share the victory."));
        vec![
            Section { title: "Setup", lines: setup },
            Section { title: "A turn", lines: turn },
            Section { title: "Roads", lines: roads },
            Section { title: "Cities", lines: cities },
            Section { title: "Cloisters", lines: cloisters },
            Section { title: "Farms", lines: farms },
            Section { title: "End of the game", lines: end },
        ]
    }
}
