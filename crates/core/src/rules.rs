//! The rule set a game is played with: presets and options (rules.md).

use std::fmt;

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
        match self {
            FarmRule::PerFarm => "per-farm",
            FarmRule::PerFarmOnce => "per-farm-once",
            FarmRule::PerCity => "per-city",
            FarmRule::Off => "off",
        }
    }

    pub fn from_name(s: &str) -> Option<FarmRule> {
        FarmRule::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// A named starting point for a rule set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Preset {
    #[default]
    Standard,
    Beginner,
    FirstEdition,
}

impl Preset {
    pub const ALL: [Preset; 3] = [Preset::Standard, Preset::Beginner, Preset::FirstEdition];

    pub const fn name(self) -> &'static str {
        match self {
            Preset::Standard => "standard",
            Preset::Beginner => "beginner",
            Preset::FirstEdition => "first-edition",
        }
    }

    pub fn from_name(s: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == s)
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
    pub const fn name(self) -> &'static str {
        match self {
            Unplaceable::Discard => "discard",
            Unplaceable::Reshuffle => "reshuffle",
        }
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
    pub const fn name(self) -> &'static str {
        match self {
            FirstPlayer::Seat0 => "seat0",
            FirstPlayer::Random => "random",
        }
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
}

impl Default for Rules {
    fn default() -> Self {
        Rules::preset(Preset::Standard)
    }
}

/// Every option's record name, in the order rules.md lists them.
pub const OPTION_NAMES: [&str; 13] = [
    "farms",
    "small_city",
    "river",
    "abbot",
    "hand",
    "hand_visible",
    "draw_at_turn_end",
    "unplaceable",
    "hole_bonus_turn",
    "incomplete_scoring",
    "board_limit",
    "border_completes",
    "first_player",
];

impl Rules {
    /// The rule set a preset stands for (rules.md, "Presets"): every house
    /// rule off, no River, no Abbot.
    pub const fn preset(preset: Preset) -> Rules {
        let (farms, small_city) = match preset {
            Preset::Standard => (FarmRule::PerFarm, false),
            Preset::Beginner => (FarmRule::Off, false),
            Preset::FirstEdition => (FarmRule::PerCity, true),
        };
        Rules {
            preset,
            farms,
            small_city,
            river: false,
            abbot: false,
            hand: 1,
            hand_visible: false,
            draw_at_turn_end: false,
            unplaceable: Unplaceable::Discard,
            hole_bonus_turn: false,
            incomplete_scoring: true,
            board_limit: None,
            border_completes: false,
            first_player: FirstPlayer::Seat0,
        }
    }

    /// Whether players hold tiles between turns (a hand of more than one,
    /// or a tile drawn at the end of one's turn).
    pub const fn hand_mode(&self) -> bool {
        self.hand > 1 || self.draw_at_turn_end
    }

    /// Sets one option by its record name from its text form (`per-city`,
    /// `true`, `2`, `7x5`), as the command line does.
    ///
    /// # Errors
    /// An unknown option or a value it does not take.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let bad = || RulesError::BadValue { option: key.to_string(), value: value.to_string() };
        let flag = || parse_bool(value).ok_or_else(bad);
        match key {
            "preset" => *self = Rules::preset(Preset::from_name(value).ok_or_else(bad)?),
            "farms" => self.farms = FarmRule::from_name(value).ok_or_else(bad)?,
            "small_city" => self.small_city = flag()?,
            "river" => self.river = flag()?,
            "abbot" => self.abbot = flag()?,
            "hand" => self.hand = value.parse().ok().filter(|n| (1..=3).contains(n)).ok_or_else(bad)?,
            "hand_visible" => self.hand_visible = flag()?,
            "draw_at_turn_end" => self.draw_at_turn_end = flag()?,
            "unplaceable" => {
                self.unplaceable = match value {
                    "discard" => Unplaceable::Discard,
                    "reshuffle" => Unplaceable::Reshuffle,
                    _ => return Err(bad()),
                }
            }
            "hole_bonus_turn" => self.hole_bonus_turn = flag()?,
            "incomplete_scoring" => self.incomplete_scoring = flag()?,
            "board_limit" => {
                self.board_limit = match value {
                    "none" | "off" | "null" => None,
                    _ => {
                        let (w, h) = value.split_once(['x', 'X', ',']).ok_or_else(bad)?;
                        let w: u8 = w.trim().parse().map_err(|_| bad())?;
                        let h: u8 = h.trim().parse().map_err(|_| bad())?;
                        Some((w, h))
                    }
                }
            }
            "border_completes" => self.border_completes = flag()?,
            "first_player" => {
                self.first_player = match value {
                    "seat0" => FirstPlayer::Seat0,
                    "random" => FirstPlayer::Random,
                    _ => return Err(bad()),
                }
            }
            _ => return Err(RulesError::UnknownOption(key.to_string())),
        }
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
        Ok(())
    }

    /// Parses `preset[,key=value…]`, e.g. `first-edition,small_city=false`.
    ///
    /// # Errors
    /// An unknown preset or option, a bad value, or options that conflict.
    pub fn parse(spec: &str) -> Result<Rules, RulesError> {
        let mut rules = Rules::default();
        for (i, part) in spec.split(',').map(str::trim).filter(|s| !s.is_empty()).enumerate() {
            match part.split_once('=') {
                Some((k, v)) => rules.set(k.trim(), v.trim())?,
                None if i == 0 => {
                    rules = Rules::preset(
                        Preset::from_name(part).ok_or_else(|| RulesError::UnknownPreset(part.to_string()))?,
                    )
                }
                None => return Err(RulesError::UnknownOption(part.to_string())),
            }
        }
        rules.validate()?;
        Ok(rules)
    }

    /// The options that differ from the preset, as `(name, text value)`.
    pub fn changes(&self) -> Vec<(&'static str, String)> {
        let base = Rules::preset(self.preset);
        let mut out = Vec::new();
        let mut add = |name: &'static str, differs: bool, value: String| {
            if differs {
                out.push((name, value));
            }
        };
        add("farms", self.farms != base.farms, self.farms.name().into());
        add("small_city", self.small_city != base.small_city, self.small_city.to_string());
        add("river", self.river, "true".into());
        add("abbot", self.abbot, "true".into());
        add("hand", self.hand != 1, self.hand.to_string());
        add("hand_visible", self.hand_visible, "true".into());
        add("draw_at_turn_end", self.draw_at_turn_end, "true".into());
        add("unplaceable", self.unplaceable != base.unplaceable, self.unplaceable.name().into());
        add("hole_bonus_turn", self.hole_bonus_turn, "true".into());
        add("incomplete_scoring", !self.incomplete_scoring, "false".into());
        if let Some((w, h)) = self.board_limit {
            add("board_limit", true, format!("{w}x{h}"));
        }
        add("border_completes", self.border_completes, "true".into());
        add("first_player", self.first_player != base.first_player, self.first_player.name().into());
        out
    }

    /// The rule set in plain words, one line per point.
    pub fn explain(&self) -> Vec<String> {
        let mut lines = vec![format!("Preset: {}.", self.preset.name())];
        lines.push(match self.farms {
            FarmRule::PerFarm => {
                "Farms: each farm pays its farmers' majority 3 points per completed city it borders.".into()
            }
            FarmRule::PerFarmOnce => {
                "Farms: 3 points per completed city, each city paying each player at most once (2001 rules).".into()
            }
            FarmRule::PerCity => {
                "Farms: each completed city pays 4 points to the most farmers over all farms bordering it (2000 rules)."
                    .into()
            }
            FarmRule::Off => "Farms: no farmers are played.".into(),
        });
        if self.small_city {
            lines.push("Small cities: a completed 2-tile city scores 2 points, not 4.".into());
        }
        if self.river {
            lines.push("The River: the game starts with the 12 river tiles instead of the start tile.".into());
        }
        if self.abbot {
            lines.push("The Abbot: each player has an abbot for cloisters and gardens, and may recall it.".into());
        }
        if self.hand > 1 {
            let seen = if self.hand_visible { "shown to everyone" } else { "hidden from the others" };
            lines.push(format!("Hands: each player holds {} tiles, {seen}, and chooses which to play.", self.hand));
        }
        if self.draw_at_turn_end {
            lines.push("Players draw their next tile at the end of their turn.".into());
        }
        if self.unplaceable == Unplaceable::Reshuffle {
            lines.push("A tile that fits nowhere goes back into the bag instead of leaving the game.".into());
        }
        if self.hole_bonus_turn {
            lines.push("Filling a hole (a tile with neighbours on all four sides) earns another turn.".into());
        }
        if !self.incomplete_scoring {
            lines.push("Incomplete roads, cities, cloisters and gardens score nothing at the end.".into());
        }
        if let Some((w, h)) = self.board_limit {
            lines.push(format!("The table is {w} by {h} tiles, centred on the start tile."));
            if self.border_completes {
                lines.push("Roads and cities that reach the table's edge count as closed there.".into());
            }
        }
        if self.first_player == FirstPlayer::Random {
            lines.push("The first player is chosen at random.".into());
        }
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
    /// A rule-set code that does not decode.
    BadCode(String),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownPreset(p) => write!(f, "unknown preset \"{p}\""),
            RulesError::UnknownOption(o) => write!(f, "unknown rule option \"{o}\""),
            RulesError::BadValue { option, value } => write!(f, "rule option {option} cannot be {value}"),
            RulesError::Conflict(m) => write!(f, "{m}"),
            RulesError::BadCode(m) => write!(f, "not a rule-set code: {m}"),
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
}

/// Rule-set codes: a compact, URL-safe form of a rule set to share, e.g. in
/// an invite link. Six bytes (version, enums, flags, hand, table size) in
/// unpadded base64url.
mod code {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;

    use super::{FarmRule, FirstPlayer, Preset, Rules, RulesError, Unplaceable};

    const VERSION: u8 = 1;

    impl Rules {
        /// The rule set's code (round-trips through [`Rules::from_code`]).
        pub fn to_code(&self) -> String {
            let preset = Preset::ALL.iter().position(|&p| p == self.preset).unwrap_or(0) as u8;
            let farms = FarmRule::ALL.iter().position(|&f| f == self.farms).unwrap_or(0) as u8;
            let enums = preset
                | farms << 2
                | ((self.first_player == FirstPlayer::Random) as u8) << 4
                | ((self.unplaceable == Unplaceable::Reshuffle) as u8) << 5;
            let flags = [
                self.small_city,
                self.river,
                self.abbot,
                self.hand_visible,
                self.draw_at_turn_end,
                self.hole_bonus_turn,
                !self.incomplete_scoring,
                self.border_completes,
            ]
            .iter()
            .enumerate()
            .fold(0u8, |acc, (i, &on)| acc | (on as u8) << i);
            let (w, h) = self.board_limit.unwrap_or((0, 0));
            URL_SAFE_NO_PAD.encode([VERSION, enums, flags, self.hand, w, h])
        }

        /// Reads a rule-set code.
        ///
        /// # Errors
        /// Text that is not a code of this version, or options that do not fit together.
        pub fn from_code(code: &str) -> Result<Rules, RulesError> {
            let bad = |m: &str| RulesError::BadCode(m.to_string());
            let bytes = URL_SAFE_NO_PAD.decode(code.trim()).map_err(|_| bad("not base64url"))?;
            let [version, enums, flags, hand, w, h] = bytes[..] else {
                return Err(bad("wrong length"));
            };
            if version != VERSION {
                return Err(bad("unknown version"));
            }
            let preset = *Preset::ALL.get((enums & 3) as usize).ok_or_else(|| bad("unknown preset"))?;
            let flag = |i: u8| flags & (1 << i) != 0;
            let rules = Rules {
                preset,
                farms: FarmRule::ALL[((enums >> 2) & 3) as usize],
                first_player: if enums & 16 != 0 { FirstPlayer::Random } else { FirstPlayer::Seat0 },
                unplaceable: if enums & 32 != 0 { Unplaceable::Reshuffle } else { Unplaceable::Discard },
                small_city: flag(0),
                river: flag(1),
                abbot: flag(2),
                hand_visible: flag(3),
                draw_at_turn_end: flag(4),
                hole_bonus_turn: flag(5),
                incomplete_scoring: !flag(6),
                border_completes: flag(7),
                hand,
                board_limit: (w != 0 || h != 0).then_some((w, h)),
            };
            if enums >> 6 != 0 {
                return Err(bad("unknown options"));
            }
            rules.validate()?;
            Ok(rules)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

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
            assert!(Rules::from_code("AQAAAAAA").is_err(), "a hand of 0 is refused");
        }
    }
}
