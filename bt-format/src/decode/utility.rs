//! `utility`'s `"choose"`, `"best"`, `"margin"`, `"every"` and `"scores"` checked, each
//! problem at its JSON path.

use behaved_runtime::utility::CurveOf;

use super::{Decoder, LeafFamily};
use crate::document::{Json, Object};
use crate::error::path;
use crate::messages::describe;
use crate::model::Params;
use crate::utility::{Choice, Curve, Score, ScoreOf};

const CURVES: &str = "\"linear\", \"polynomial\", \"logistic\", \"step\" or \"piecewise\"";

impl Decoder<'_> {
    /// A `utility` node's parameters, for `n` children.
    pub(super) fn utility(&mut self, obj: &Object<'_>, at: &str, n: usize) -> Option<Params> {
        let choice = self.choice(obj, at);
        let scores = match obj.get("scores") {
            Some(Json::Array(list)) => {
                let p = path::field(at, "scores");
                let scores: Vec<Option<Score>> = list
                    .iter()
                    .enumerate()
                    .map(|(i, s)| self.score(s, &path::index(&p, i), 0))
                    .collect();
                let scores: Vec<Score> = scores.into_iter().collect::<Option<_>>()?;
                if n > 0 && scores.len() != n {
                    self.report(
                        &p,
                        format!("{} scores for {n} children: give one score per child", scores.len()),
                    );
                    return None;
                }
                scores
            }
            Some(other) => {
                self.report(
                    &path::field(at, "scores"),
                    format!("expected an array of scores, one per child, found {}", describe(other)),
                );
                return None;
            }
            None => {
                self.report(
                    at,
                    "\"utility\" needs \"scores\": an array of scores ({\"consider\": <registered consideration>}), one per child",
                );
                return None;
            }
        };
        Some(Params::Utility {
            choice: choice?,
            scores,
        })
    }

    fn choice(&mut self, obj: &Object<'_>, at: &str) -> Option<Choice> {
        let mut choice = match obj.get("choose") {
            None => Choice::Best,
            Some(Json::String(s)) if *s == "best" => Choice::Best,
            Some(Json::String(s)) if *s == "weighted" => Choice::Weighted { best: 0 },
            Some(Json::String(s)) if *s == "reactive" => Choice::Reactive { margin: 0.0 },
            Some(other) => {
                self.report(
                    &path::field(at, "choose"),
                    format!(
                        "expected \"best\", \"weighted\" or \"reactive\", found {}",
                        describe(other)
                    ),
                );
                return None;
            }
        };
        let mut ok = true;
        if let Some(v) = obj.get("every") {
            let p = path::field(at, "every");
            match (choice, v.as_f64()) {
                (Choice::Best, Some(d)) if obj.get("choose").is_none() && d.is_finite() && d > 0.0 => {
                    choice = Choice::Every { every: d, margin: 0.0 };
                }
                (Choice::Best, _) if obj.get("choose").is_none() => {
                    self.report(
                        &p,
                        format!("\"every\" must be a number of seconds > 0, found {}", describe(v)),
                    );
                    ok = false;
                }
                _ => {
                    self.report(
                        &p,
                        "\"every\" is a way of choosing of its own (re-scored at most every so many seconds): \
                         leave out \"choose\"",
                    );
                    ok = false;
                }
            }
        }
        if let Some(v) = obj.get("best") {
            let p = path::field(at, "best");
            match &mut choice {
                Choice::Weighted { best } => match self.positive(v, &p, "\"best\"") {
                    Some(k) => *best = k,
                    None => ok = false,
                },
                _ => {
                    self.report(&p, "\"best\" limits a draw: it needs \"choose\": \"weighted\"");
                    ok = false;
                }
            }
        }
        if let Some(v) = obj.get("margin") {
            let p = path::field(at, "margin");
            match (&mut choice, v.as_f64()) {
                (Choice::Reactive { margin } | Choice::Every { margin, .. }, Some(m)) if m.is_finite() && m >= 0.0 => {
                    *margin = m as f32
                }
                (Choice::Reactive { .. } | Choice::Every { .. }, _) => {
                    self.report(&p, format!("\"margin\" must be a number >= 0, found {}", describe(v)));
                    ok = false;
                }
                _ => {
                    self.report(
                        &p,
                        "\"margin\" applies to re-scoring: it needs \"choose\": \"reactive\" or \"every\": <seconds>",
                    );
                    ok = false;
                }
            }
        }
        ok.then_some(choice)
    }

    /// One score (a `utility` child's, or a `pick` candidate's), checked at `at`.
    pub(super) fn score(&mut self, v: &Json<'_>, at: &str, depth: usize) -> Option<Score> {
        let Json::Object(o) = v else {
            self.report(
                at,
                format!(
                    "expected a score: {{\"consider\": <registered consideration>}} or {{\"all\": [..]}}, found {}",
                    describe(v)
                ),
            );
            return None;
        };
        if depth > 16 {
            self.report(at, "scores nested more than 16 \"all\"s deep");
            return None;
        }
        let weight = match o.get("weight") {
            None => Some(1.0),
            Some(w) => match w.as_f64() {
                Some(x) if x.is_finite() && x >= 0.0 => Some(x as f32),
                _ => {
                    self.report(
                        &path::field(at, "weight"),
                        format!("\"weight\" must be a number >= 0, found {}", describe(w)),
                    );
                    None
                }
            },
        };
        for (k, _) in o.iter() {
            if !matches!(k, "consider" | "curve" | "all" | "weight") {
                self.report(
                    &path::field(at, k),
                    format!("unknown field {k:?} in a score: expected \"consider\", \"curve\", \"all\" or \"weight\""),
                );
                return None;
            }
        }
        let of = match (o.get("consider"), o.get("all")) {
            (Some(leaf), None) => {
                let lp = path::field(at, "consider");
                let leaf = self.leaf_spec(leaf, &lp, "consideration");
                if let Some(l) = &leaf {
                    self.check_leaf(LeafFamily::Consideration, l, &lp);
                }
                let curve = match o.get("curve") {
                    Some(c) => Some(self.curve(c, &path::field(at, "curve"))?),
                    None => None,
                };
                ScoreOf::Consider { leaf: leaf?, curve }
            }
            (None, Some(Json::Array(parts))) if !parts.is_empty() => {
                if o.get("curve").is_some() {
                    self.report(
                        &path::field(at, "curve"),
                        "a curve applies to one consideration: put it inside \"all\"",
                    );
                    return None;
                }
                let p = path::field(at, "all");
                let parts: Vec<Option<Score>> = parts
                    .iter()
                    .enumerate()
                    .map(|(i, s)| self.score(s, &path::index(&p, i), depth + 1))
                    .collect();
                ScoreOf::All(parts.into_iter().collect::<Option<_>>()?)
            }
            (None, Some(other)) => {
                self.report(
                    &path::field(at, "all"),
                    format!("expected a non-empty array of scores, found {}", describe(other)),
                );
                return None;
            }
            _ => {
                self.report(at, "a score has either \"consider\" or \"all\"");
                return None;
            }
        };
        Some(Score { weight: weight?, of })
    }

    /// `{"curve": "logistic", "steepness": 10, "midpoint": 0.5}`, checked by
    /// the runtime's rule (`Curve::check`).
    fn curve(&mut self, v: &Json<'_>, at: &str) -> Option<Curve> {
        let Json::Object(o) = v else {
            self.report(
                at,
                format!(
                    "expected a curve: {{\"curve\": {CURVES}, ..parameters}}, found {}",
                    describe(v)
                ),
            );
            return None;
        };
        let mut num = |name: &str| -> Option<f32> {
            let p = path::field(at, name);
            match o.get(name) {
                Some(x) => match x.as_f64() {
                    Some(f) if f.is_finite() => Some(f as f32),
                    _ => {
                        self.report(&p, format!("{name:?} must be a finite number, found {}", describe(x)));
                        None
                    }
                },
                None => {
                    self.report(at, format!("the curve needs {name:?}"));
                    None
                }
            }
        };
        let curve = match o.get("curve") {
            Some(Json::String(s)) if *s == "linear" => {
                let (slope, intercept) = (num("slope"), num("intercept"));
                CurveOf::Linear {
                    slope: slope?,
                    intercept: intercept?,
                }
            }
            Some(Json::String(s)) if *s == "polynomial" => {
                let (exponent, slope, shift, intercept) =
                    (num("exponent"), num("slope"), num("shift"), num("intercept"));
                CurveOf::Polynomial {
                    exponent: exponent?,
                    slope: slope?,
                    shift: shift?,
                    intercept: intercept?,
                }
            }
            Some(Json::String(s)) if *s == "logistic" => {
                let (steepness, midpoint) = (num("steepness"), num("midpoint"));
                CurveOf::Logistic {
                    steepness: steepness?,
                    midpoint: midpoint?,
                }
            }
            Some(Json::String(s)) if *s == "step" => {
                let (threshold, low, high) = (num("threshold"), num("low"), num("high"));
                CurveOf::Step {
                    threshold: threshold?,
                    low: low?,
                    high: high?,
                }
            }
            Some(Json::String(s)) if *s == "piecewise" => {
                let p = path::field(at, "points");
                let points = match o.get("points") {
                    Some(Json::Array(list)) => list
                        .iter()
                        .map(|pt| match pt {
                            Json::Array(xy) if xy.len() == 2 => match (xy[0].as_f64(), xy[1].as_f64()) {
                                (Some(x), Some(y)) => Some((x as f32, y as f32)),
                                _ => None,
                            },
                            _ => None,
                        })
                        .collect::<Option<Vec<_>>>(),
                    _ => None,
                };
                match points {
                    Some(pts) => CurveOf::Piecewise(pts),
                    None => {
                        self.report(
                            &p,
                            "a piecewise curve needs \"points\": an array of [x, y] number pairs",
                        );
                        return None;
                    }
                }
            }
            other => {
                let found = other.map_or_else(|| "nothing".to_owned(), describe);
                self.report(&path::field(at, "curve"), format!("expected {CURVES}, found {found}"));
                return None;
            }
        };
        match curve.check() {
            Ok(()) => Some(curve),
            Err(e) => {
                self.report(at, e.to_string());
                None
            }
        }
    }
}
