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

/// The full rule set of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub preset: Preset,
    pub farms: FarmRule,
    /// A completed 2-tile city scores 1 per tile and shield instead of 2.
    pub small_city: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::preset(Preset::Standard)
    }
}

impl Rules {
    /// The rule set a preset stands for (rules.md, "Presets").
    pub const fn preset(preset: Preset) -> Rules {
        match preset {
            Preset::Standard => Rules { preset, farms: FarmRule::PerFarm, small_city: false },
            Preset::Beginner => Rules { preset, farms: FarmRule::Off, small_city: false },
            Preset::FirstEdition => Rules { preset, farms: FarmRule::PerCity, small_city: true },
        }
    }

    /// Sets one option by its record name (`farms`, `small_city`) from its
    /// text form (`per-city`, `true`), as the command line and records do.
    ///
    /// # Errors
    /// An unknown option or a value it does not take.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let bad = || RulesError::BadValue { option: key.to_string(), value: value.to_string() };
        match key {
            "farms" => self.farms = FarmRule::from_name(value).ok_or_else(bad)?,
            "small_city" => self.small_city = parse_bool(value).ok_or_else(bad)?,
            _ => return Err(RulesError::UnknownOption(key.to_string())),
        }
        Ok(())
    }

    /// Parses `preset[,key=value…]`, e.g. `first-edition,small_city=false`.
    ///
    /// # Errors
    /// An unknown preset or option, or a bad value.
    pub fn parse(spec: &str) -> Result<Rules, RulesError> {
        let mut parts = spec.split(',').map(str::trim).filter(|s| !s.is_empty());
        let mut rules = Rules::default();
        let mut first = true;
        for part in parts.by_ref() {
            match part.split_once('=') {
                Some((k, v)) => rules.set(k.trim(), v.trim())?,
                None if first => {
                    rules = Rules::preset(
                        Preset::from_name(part).ok_or_else(|| RulesError::UnknownPreset(part.to_string()))?,
                    )
                }
                None => return Err(RulesError::UnknownOption(part.to_string())),
            }
            first = false;
        }
        Ok(rules)
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
        let base = Rules::preset(self.preset);
        if self.farms != base.farms {
            write!(f, ",farms={}", self.farms.name())?;
        }
        if self.small_city != base.small_city {
            write!(f, ",small_city={}", self.small_city)?;
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
    /// An option that rules.md defines but this engine does not play yet.
    Unsupported(String),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownPreset(p) => write!(f, "unknown preset \"{p}\""),
            RulesError::UnknownOption(o) => write!(f, "unknown rule option \"{o}\""),
            RulesError::BadValue { option, value } => {
                write!(f, "rule option {option} cannot be {value}")
            }
            RulesError::Unsupported(o) => {
                write!(f, "rule option {o} is not supported by this engine yet")
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
    }

    #[test]
    fn parse_and_display_round_trip() {
        let r = Rules::parse("first-edition,small_city=false").unwrap();
        assert_eq!(r.farms, FarmRule::PerCity);
        assert!(!r.small_city);
        assert_eq!(Rules::parse(&r.to_string()).unwrap(), r);
        assert_eq!(Rules::parse("farms=off").unwrap().farms, FarmRule::Off);
        assert!(matches!(Rules::parse("nope"), Err(RulesError::UnknownPreset(_))));
        assert!(matches!(Rules::parse("standard,farms=lots"), Err(RulesError::BadValue { .. })));
    }
}
