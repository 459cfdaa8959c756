//! `utility`'s parameters in the JSON form: how it chooses and one score per
//! child (SEMANTICS.md "utility").
//!
//! ```json
//! {"type": "utility", "choose": "reactive", "margin": 0.1,
//!  "scores": [
//!    {"consider": "hunger"},
//!    {"all": [{"consider": {"type": "distance", "to": "food"},
//!              "curve": {"curve": "logistic", "steepness": -1, "midpoint": 5}},
//!             {"consider": "fatigue", "curve": {"curve": "linear", "slope": -1, "intercept": 1}}],
//!     "weight": 2}
//!  ],
//!  "children": [..]}
//! ```

use behaved_runtime::utility::CurveOf;
use serde_json::{Map, Value};

use crate::model::Leaf;

/// A curve whose piecewise points the JSON file holds.
pub type Curve = CurveOf<Vec<(f32, f32)>>;

/// How a `utility` node chooses among its scored children: in a file
/// `"choose"` with `"best"`, `"margin"` and `"every"`, in the DSL
/// `utility(..)`'s arguments (SEMANTICS.md "utility").
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Choice {
    /// `"best"` (the default), `utility`: the highest score, on entry (the
    /// first on ties).
    Best,
    /// `"weighted"`, `utility(weighted, best = k)`: a draw in proportion to
    /// the scores, on entry, among the `best` highest (0, or no `best`: all).
    Weighted {
        /// How many of the highest scores take part (0: all).
        best: u32,
    },
    /// `"reactive"`, `utility(reactive, margin = m)`: the highest score on
    /// entry, then re-scored on every tick; another child takes over when it
    /// beats the running child by more than `margin` (default 0).
    Reactive {
        /// How much more another child must score to take over.
        margin: f32,
    },
    /// `"every": d` (no `"choose"`), `utility(every = d, margin = m)`: the
    /// highest score on entry, then re-scored at most every `every` seconds
    /// while its child runs, switching as the reactive form does.
    Every {
        /// Seconds between scorings (finite, above 0).
        every: f64,
        /// How much more another child must score to take over.
        margin: f32,
    },
}

impl Choice {
    /// The seconds between scorings of the interval form.
    pub fn every(&self) -> Option<f64> {
        match self {
            Choice::Every { every, .. } => Some(*every),
            _ => None,
        }
    }

    /// Whether its tick may halt its running child (to switch).
    pub fn switches(&self) -> bool {
        matches!(self, Choice::Reactive { .. } | Choice::Every { .. })
    }

    /// Whether it draws from the tree's random generator.
    pub fn draws(&self) -> bool {
        matches!(self, Choice::Weighted { .. })
    }

    /// The arguments a label shows: `None`, `weighted`, `weighted, best 2`,
    /// `reactive`, `reactive, margin 0.1`, `every 0.5`, `every 0.5, margin 0.1`.
    pub fn label(&self) -> Option<String> {
        match self {
            Choice::Best => None,
            Choice::Weighted { best: 0 } => Some("weighted".into()),
            Choice::Weighted { best } => Some(format!("weighted, best {best}")),
            Choice::Reactive { margin } if *margin == 0.0 => Some("reactive".into()),
            Choice::Reactive { margin } => Some(format!("reactive, margin {margin}")),
            Choice::Every { every, margin } if *margin == 0.0 => Some(format!("every {every:?}")),
            Choice::Every { every, margin } => Some(format!("every {every:?}, margin {margin}")),
        }
    }
}

/// One child's score: a consideration or a compensated product of scores,
/// times a weight.
#[derive(Debug, Clone, PartialEq)]
pub struct Score {
    /// The factor (`"weight"`, default 1; finite, at least 0).
    pub weight: f32,
    /// What is scored.
    pub of: ScoreOf,
}

/// What a [`Score`] scores.
#[derive(Debug, Clone, PartialEq)]
pub enum ScoreOf {
    /// `{"consider": <leaf>, "curve": <curve>}`: a registered consideration
    /// (or, in a tree written by `behave!`, an `"inline"` one with its code),
    /// through a response curve when there is one.
    Consider {
        /// The consideration leaf.
        leaf: Leaf,
        /// Its response curve.
        curve: Option<Curve>,
    },
    /// `{"all": [..]}`: the scores multiplied with the compensation for their
    /// number (`behaved_runtime::utility::compensated`).
    All(Vec<Score>),
}

impl Score {
    /// A consideration's score with no curve and weight 1.
    pub fn consider(leaf: Leaf) -> Score {
        Score {
            weight: 1.0,
            of: ScoreOf::Consider { leaf, curve: None },
        }
    }

    /// Whether every number in it is usable (weights finite and at least 0,
    /// curves passing `Curve::check`), and every `all` non-empty.
    pub fn is_valid(&self) -> bool {
        self.weight.is_finite()
            && self.weight >= 0.0
            && match &self.of {
                ScoreOf::Consider { curve, .. } => curve.as_ref().is_none_or(|c| c.check().is_ok()),
                ScoreOf::All(parts) => !parts.is_empty() && parts.iter().all(Score::is_valid),
            }
    }

    /// The score's label in an observer's `considered` events and the
    /// studio: the consideration's leaf label (its code when inline), its
    /// curve's name in parentheses and its weight when not 1 (`Distance
    /// (logistic) × 2`); a product `all(..)` of its parts' labels.
    pub fn label(&self) -> String {
        let base = match &self.of {
            ScoreOf::Consider { leaf, curve: None } => crate::label::leaf_label(leaf),
            ScoreOf::Consider { leaf, curve: Some(c) } => format!("{} ({})", crate::label::leaf_label(leaf), c.name()),
            ScoreOf::All(parts) => {
                let parts: Vec<String> = parts.iter().map(Score::label).collect();
                format!("all({})", parts.join(", "))
            }
        };
        if self.weight == 1.0 {
            base
        } else {
            format!("{base} × {}", self.weight)
        }
    }

    /// The labels of the parts an engine reports for this score (one
    /// `considered` event each, in order): each factor of a product
    /// (`{"all": [..]}`, its weight scaling the product), or the score
    /// itself. Both engines label their parts with these.
    pub fn part_labels(&self) -> Vec<String> {
        match &self.of {
            ScoreOf::All(parts) => parts.iter().map(Score::label).collect(),
            ScoreOf::Consider { .. } => vec![self.label()],
        }
    }

    /// The score as JSON.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        match &self.of {
            ScoreOf::Consider { leaf, curve } => {
                m.insert("consider".into(), leaf_json(leaf));
                if let Some(c) = curve {
                    m.insert("curve".into(), curve_json(c));
                }
            }
            ScoreOf::All(parts) => {
                m.insert("all".into(), Value::Array(parts.iter().map(Score::to_json).collect()));
            }
        }
        if self.weight != 1.0 {
            m.insert("weight".into(), f64::from(self.weight).into());
        }
        Value::Object(m)
    }
}

fn leaf_json(leaf: &Leaf) -> Value {
    if leaf.params.is_empty() {
        return leaf.type_name.as_str().into();
    }
    let mut m = Map::new();
    m.insert("type".into(), leaf.type_name.as_str().into());
    m.extend(leaf.params.clone());
    Value::Object(m)
}

/// A curve as JSON: `{"curve": "logistic", "steepness": 10, "midpoint": 0.5}`.
pub fn curve_json(c: &Curve) -> Value {
    let n = |v: f32| Value::from(f64::from(v));
    let mut m = Map::new();
    m.insert("curve".into(), c.name().into());
    for (name, value) in c.numbers() {
        m.insert(name.into(), n(value));
    }
    if let CurveOf::Piecewise(points) = c {
        let pts = points.iter().map(|&(x, y)| Value::Array(vec![n(x), n(y)])).collect();
        m.insert("points".into(), Value::Array(pts));
    }
    Value::Object(m)
}

/// `"choose"`, `"best"`, `"margin"` and `"scores"` written into a node's object.
pub(crate) fn encode(choice: &Choice, scores: &[Score], m: &mut Map<String, Value>) {
    match choice {
        Choice::Best => {}
        Choice::Weighted { best } => {
            m.insert("choose".into(), "weighted".into());
            if *best != 0 {
                m.insert("best".into(), (*best).into());
            }
        }
        Choice::Reactive { margin } => {
            m.insert("choose".into(), "reactive".into());
            if *margin != 0.0 {
                m.insert("margin".into(), f64::from(*margin).into());
            }
        }
        Choice::Every { every, margin } => {
            m.insert("every".into(), (*every).into());
            if *margin != 0.0 {
                m.insert("margin".into(), f64::from(*margin).into());
            }
        }
    }
    m.insert(
        "scores".into(),
        Value::Array(scores.iter().map(Score::to_json).collect()),
    );
}
