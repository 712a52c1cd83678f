//! The bot interface, bot specs (`mcts:1s`, `greedy`…) and difficulty levels.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use carcassonne::{Move, View};

use crate::greedy::GreedyBot;
use crate::mcts::{Budget, MctsBot, MctsConfig};
use crate::random_bot::RandomBot;

/// A computer player.
///
/// A bot is handed a [`View`]: the board, scores, supplies, the tile (or
/// hand) of the player to move, the counts of the tiles still in the bag —
/// never their order, never another player's hidden hand. It answers with a
/// move taken from [`View::legal_moves`] (placement and follower, abbot or
/// recall decision), so every rule option the engine plays is covered.
pub trait Bot: Send {
    /// A short name for reports, e.g. `mcts:1s`.
    fn name(&self) -> String;

    /// The move for the player to move in `view` (whose seat the view
    /// should be), or `None` once the game is over.
    fn choose(&mut self, view: &View<'_>) -> Option<Move>;
}

/// How strong a bot the UI asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Difficulty {
    Easy,
    Normal,
    Hard,
}

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Normal, Difficulty::Hard];

    pub const fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Normal => "normal",
            Difficulty::Hard => "hard",
        }
    }

    /// The bot this level stands for (docs/ai.md, "Difficulty levels").
    /// Easy and normal use iteration budgets, so their strength does not
    /// depend on the machine, and rank their moves by the network trained
    /// by self-play (`net=1`); hard searches for a second per move.
    pub fn spec(self) -> BotSpec {
        let with_net = |budget| BotSpec::Mcts(MctsConfig { budget, net: true, ..MctsConfig::default() });
        match self {
            Difficulty::Easy => with_net(Budget::Iterations(300)),
            Difficulty::Normal => with_net(Budget::Iterations(3000)),
            Difficulty::Hard => BotSpec::mcts(Budget::Time(Duration::from_secs(1))),
        }
    }
}

impl FromStr for Difficulty {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Difficulty, SpecError> {
        Difficulty::ALL.into_iter().find(|d| d.name() == s).ok_or_else(|| SpecError::unknown(s))
    }
}

/// Which bot to build: parsed from `random`, `greedy`, `mcts` (a second
/// per move), `mcts:1s`, `mcts:250ms`, `mcts:0.3s`, `mcts:5000it`, or a
/// difficulty (`easy`, `normal`, `hard`). An MCTS spec may add `:<n>t` for
/// threads and `:key=value` settings (docs/ai.md lists them), e.g.
/// `mcts:2000it:2t:c=0.5:depth=12`. `mcts-v1:…` is the first version of the
/// search (every later lever off), kept to measure the current one against.
#[derive(Copy, Clone, Debug, PartialEq)]
// A spec is made once per bot and seat, never kept in bulk: its search's
// settings stay inline (and `Copy`) rather than boxed.
#[allow(clippy::large_enum_variant)]
pub enum BotSpec {
    Random,
    Greedy,
    /// The search bot; its `seed` is replaced by the one given to [`BotSpec::build`].
    Mcts(MctsConfig),
}

impl BotSpec {
    /// The search bot with default settings and this budget.
    pub fn mcts(budget: Budget) -> BotSpec {
        BotSpec::Mcts(MctsConfig { budget, ..MctsConfig::default() })
    }

    /// A new bot; `seed` fixes every random choice it makes.
    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        match *self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Greedy => Box::new(GreedyBot::new(seed)),
            BotSpec::Mcts(config) => Box::new(MctsBot::new(MctsConfig { seed, ..config })),
        }
    }

    /// Whether the bot's moves depend only on its seed and what it sees (a
    /// time budget depends on the machine too).
    pub fn is_deterministic(&self) -> bool {
        !matches!(self, BotSpec::Mcts(MctsConfig { budget: Budget::Time(_), .. }))
    }
}

/// A `key=value` setting of an MCTS spec: its name, how it reads and sets
/// the search's configuration, and the values it takes (a value outside
/// them is refused with the rest of a bad spec).
struct Setting {
    name: &'static str,
    get: fn(&MctsConfig) -> f64,
    set: fn(&mut MctsConfig, f64),
    /// The least and greatest values (inclusive).
    min: f64,
    max: f64,
    /// Only whole numbers (counts, switches).
    whole: bool,
    /// `end` (infinite) is a value too.
    end: bool,
}

impl Setting {
    /// A weight or constant: any finite value from 0.
    const fn weight(name: &'static str, get: fn(&MctsConfig) -> f64, set: fn(&mut MctsConfig, f64)) -> Setting {
        Setting { name, get, set, min: 0.0, max: f64::MAX, whole: false, end: false }
    }

    /// A chance or share: 0 to 1.
    const fn share(name: &'static str, get: fn(&MctsConfig) -> f64, set: fn(&mut MctsConfig, f64)) -> Setting {
        Setting { name, get, set, min: 0.0, max: 1.0, whole: false, end: false }
    }

    /// A count: a whole number from 0 to `max`.
    const fn count(
        name: &'static str,
        get: fn(&MctsConfig) -> f64,
        set: fn(&mut MctsConfig, f64),
        max: f64,
    ) -> Setting {
        Setting { name, get, set, min: 0.0, max, whole: true, end: false }
    }

    /// A switch: 0 (off) or 1 (on).
    const fn switch(name: &'static str, get: fn(&MctsConfig) -> f64, set: fn(&mut MctsConfig, f64)) -> Setting {
        Setting::count(name, get, set, 1.0)
    }

    /// The setting's values, said for an error.
    fn values(&self) -> String {
        let values = match (self.whole, self.max) {
            (true, 1.0) => "0 or 1".to_string(),
            (true, max) => format!("a whole number from 0 to {max}"),
            (false, 1.0) => "a number from 0 to 1".to_string(),
            (false, _) if self.min > 0.0 => "a number above 0".to_string(),
            (false, _) => "a number from 0".to_string(),
        };
        if self.end {
            format!("{values}, or end")
        } else {
            values
        }
    }

    /// Whether `v` is one of the setting's values.
    fn allows(&self, v: f64) -> bool {
        if v.is_infinite() && v > 0.0 {
            return self.end;
        }
        (self.min..=self.max).contains(&v) && (!self.whole || v.fract() == 0.0)
    }
}

const SETTINGS: &[Setting] = &[
    Setting::weight("c", |c| c.exploration, |c, v| c.exploration = v),
    // `depth=end` (infinite) plays out to the end of the game.
    Setting {
        end: true,
        ..Setting::count(
            "depth",
            |c| c.playout_depth.map_or(f64::INFINITY, f64::from),
            |c, v| c.playout_depth = v.is_finite().then_some(v as u16),
            u16::MAX as f64,
        )
    },
    Setting::share("follow", |c| c.playout_follower, |c, v| c.playout_follower = v),
    Setting::share("win", |c| c.win_weight, |c, v| c.win_weight = v),
    // A margin of 0 points would divide by nothing.
    Setting { min: f64::MIN_POSITIVE, ..Setting::weight("scale", |c| c.score_scale, |c, v| c.score_scale = v) },
    Setting::count("tree", |c| c.max_depth as f64, |c, v| c.max_depth = v as u8, u8::MAX as f64),
    Setting::count("expand", |c| c.expand_after as f64, |c, v| c.expand_after = v as u32, u32::MAX as f64),
    Setting::weight("wbase", |c| c.widen_base, |c, v| c.widen_base = v),
    Setting::weight("wfactor", |c| c.widen_factor, |c, v| c.widen_factor = v),
    Setting::weight("prior", |c| c.prior_weight, |c, v| c.prior_weight = v),
    Setting::share("pgrow", |c| c.prior_growth, |c, v| c.prior_growth = v),
    Setting::weight("meeple", |c| c.valuation.follower, |c, v| c.valuation.follower = v),
    Setting::count("rank", |c| c.rank_after as f64, |c, v| c.rank_after = v as u32, u32::MAX as f64),
    Setting::count("pk", |c| c.playout_sample as f64, |c, v| c.playout_sample = v as u32, u32::MAX as f64),
    Setting::share("farm", |c| c.playout_farmer, |c, v| c.playout_farmer = v),
    Setting::share("instant", |c| c.playout_instant, |c, v| c.playout_instant = v),
    Setting::weight("wroad", |c| c.decision_weights[0], |c, v| c.decision_weights[0] = v),
    Setting::weight("wcity", |c| c.decision_weights[1], |c, v| c.decision_weights[1] = v),
    Setting::weight("wmonk", |c| c.decision_weights[2], |c, v| c.decision_weights[2] = v),
    Setting::switch("learned", |c| f64::from(u8::from(c.learned)), |c, v| c.learned = v != 0.0),
    Setting::switch("net", |c| f64::from(u8::from(c.net)), |c, v| c.net = v != 0.0),
    Setting::switch("policy", |c| f64::from(u8::from(c.policy)), |c, v| c.policy = v != 0.0),
    // The network's share of a playout's reward.
    Setting::share("mix", |c| c.net_mix, |c, v| c.net_mix = v),
    Setting::switch("stop", |c| f64::from(u8::from(c.early_stop)), |c, v| c.early_stop = v != 0.0),
    Setting::count("sh", |c| c.halving as f64, |c, v| c.halving = v as u32, u32::MAX as f64),
];

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Mcts(c) => {
                // The first version's levers are named by its own kind.
                let (kind, base) = if c.is_v1() && !MctsConfig::default().is_v1() {
                    ("mcts-v1", MctsConfig::v1())
                } else {
                    ("mcts", MctsConfig::default())
                };
                write!(f, "{kind}:{}", c.budget)?;
                if c.threads > 1 {
                    write!(f, ":{}t", c.threads)?;
                }
                for Setting { name, get, .. } in SETTINGS {
                    match get(c) {
                        v if v == get(&base) => {}
                        v if v.is_infinite() => write!(f, ":{name}=end")?,
                        v => write!(f, ":{name}={v}")?,
                    }
                }
                Ok(())
            }
        }
    }
}

/// A bot spec that could not be read: the spec, and what is wrong with
/// it where that is more than an unknown name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub spec: String,
    pub reason: Option<String>,
}

impl SpecError {
    fn unknown(spec: &str) -> SpecError {
        SpecError { spec: spec.to_string(), reason: None }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.reason {
            Some(reason) => write!(f, "bad bot \"{}\": {reason}", self.spec),
            None => write!(
                f,
                "unknown bot \"{}\" (expected random, greedy, mcts, mcts:<seconds>s, mcts:<ms>ms, mcts:<n>it, mcts-v1:…, easy, normal or hard)",
                self.spec
            ),
        }
    }
}

impl std::error::Error for SpecError {}

impl FromStr for BotSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<BotSpec, SpecError> {
        let bad = || SpecError::unknown(s);
        let s = s.trim();
        if let Ok(d) = s.parse::<Difficulty>() {
            return Ok(d.spec());
        }
        let mut parts = s.split(':').map(str::trim);
        let kind = parts.next().unwrap_or_default();
        let rest: Vec<&str> = parts.collect();
        match kind {
            "random" if rest.is_empty() => Ok(BotSpec::Random),
            "greedy" if rest.is_empty() => Ok(BotSpec::Greedy),
            "mcts" | "mcts-v1" => {
                let mut c = if kind == "mcts" { MctsConfig::default() } else { MctsConfig::v1() };
                for (i, part) in rest.iter().enumerate() {
                    if let Some((key, value)) = part.split_once('=') {
                        let setting = SETTINGS.iter().find(|setting| setting.name == key).ok_or_else(bad)?;
                        let v: Option<f64> = if value == "end" { Some(f64::INFINITY) } else { value.parse().ok() };
                        match v.filter(|&v| setting.allows(v)) {
                            Some(v) => (setting.set)(&mut c, v),
                            None => {
                                let reason = format!("{key} takes {}", setting.values());
                                return Err(SpecError { spec: s.to_string(), reason: Some(reason) });
                            }
                        }
                    } else if let Some(t) = part.strip_suffix('t').filter(|t| !t.ends_with('i')) {
                        c.threads = t.parse().ok().filter(|&t| t > 0).ok_or_else(bad)?;
                    } else if i == 0 {
                        c.budget = part.parse().map_err(|_| bad())?;
                    } else {
                        return Err(bad());
                    }
                }
                Ok(BotSpec::Mcts(c))
            }
            _ => Err(bad()),
        }
    }
}

/// Parses a comma-separated list of bot specs (`mcts:1s,greedy`).
///
/// # Errors
/// The first spec that could not be read.
pub fn parse_specs(list: &str) -> Result<Vec<BotSpec>, SpecError> {
    list.split(',').filter(|s| !s.trim().is_empty()).map(str::parse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print() {
        assert_eq!("random".parse(), Ok(BotSpec::Random));
        assert_eq!("greedy".parse(), Ok(BotSpec::Greedy));
        assert_eq!("mcts:1s".parse(), Ok(BotSpec::mcts(Budget::Time(Duration::from_secs(1)))));
        assert_eq!("mcts".parse(), Ok(BotSpec::mcts(Budget::Time(Duration::from_secs(1)))));
        assert_eq!("mcts:0.3s".parse(), Ok(BotSpec::mcts(Budget::Time(Duration::from_millis(300)))));
        assert_eq!("mcts:250ms".parse(), Ok(BotSpec::mcts(Budget::Time(Duration::from_millis(250)))));
        assert_eq!("mcts:5000it".parse(), Ok(BotSpec::mcts(Budget::Iterations(5000))));
        assert_eq!("hard".parse(), Ok(Difficulty::Hard.spec()));
        let Ok(BotSpec::Mcts(c)) = "mcts:2000it:2t:c=0.5:depth=end".parse() else { panic!() };
        assert_eq!((c.budget, c.threads, c.exploration, c.playout_depth), (Budget::Iterations(2000), 2, 0.5, None));
        let Ok(BotSpec::Mcts(c)) = "mcts:2000it:depth=0".parse() else { panic!() };
        assert_eq!(c.playout_depth, Some(0));
        for text in [
            "random",
            "greedy",
            "mcts:1s",
            "mcts:300ms",
            "mcts:5000it",
            "mcts:2000it:2t:c=0.5:depth=12",
            "mcts:300it:net=1",
            "mcts:1s:net=1:mix=0.5",
            "mcts:1s:policy=1",
        ] {
            assert_eq!(text.parse::<BotSpec>().unwrap().to_string(), text);
        }
        for bad in [
            "",
            "mcts:",
            "mcts:fast",
            "greedy:2",
            "alphazero",
            "mcts:0it",
            "mcts:-1s",
            "mcts:1s:zz=1",
            "mcts:0t",
            "mcts:1s:mix=1.5",
            "mcts:1s:farm=2",
            "mcts:1s:win=-0.1",
            "mcts:1s:scale=0",
            "mcts:1s:tree=300",
            "mcts:1s:tree=2.5",
            "mcts:1s:net=2",
            "mcts:1s:policy=0.5",
            "mcts:1s:c=end",
            "mcts:1s:depth=-1",
            "mcts:1s:depth=70000",
            "mcts:1s:c=NaN",
            "mcts:1s:prior=inf",
            "mcts:1s:mix=half",
        ] {
            assert!(bad.parse::<BotSpec>().is_err(), "{bad}");
        }
        let error = "mcts:1s:farm=2".parse::<BotSpec>().unwrap_err();
        assert_eq!(error.to_string(), "bad bot \"mcts:1s:farm=2\": farm takes a number from 0 to 1");
        let error = "mcts:1s:depth=2.5".parse::<BotSpec>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "bad bot \"mcts:1s:depth=2.5\": depth takes a whole number from 0 to 65535, or end"
        );
        assert_eq!(parse_specs("mcts:1s, greedy").unwrap().len(), 2);
        let Ok(BotSpec::Mcts(v1)) = "mcts-v1:1s".parse() else { panic!() };
        assert!(v1.is_v1());
        assert!(!MctsConfig::default().is_v1(), "the current search differs from the first");
        let Ok(BotSpec::Mcts(c)) = "mcts:500it:farm=1:pk=3".parse() else { panic!() };
        assert_eq!((c.playout_farmer, c.playout_sample), (1.0, 3));
        for text in ["mcts-v1:1s", "mcts-v1:500it:c=0.5", "mcts:500it:farm=1:pk=3", "mcts-v1:1s:farm=0.2"] {
            let spec: BotSpec = text.parse().unwrap();
            assert_eq!(spec.to_string().parse::<BotSpec>().unwrap(), spec, "{text}");
        }
    }
}
