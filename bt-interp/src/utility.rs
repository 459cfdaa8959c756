//! `utility` nodes in a loaded tree: each child's score as a small program
//! of registered considerations, curves and compensated products, built at
//! load time ([`Scoring::build`]) and evaluated in a tick without allocating
//! ([`Scoring::score`]). Choosing is the runtime's
//! (`behaved_runtime::utility`), shared with compiled trees, so both forms
//! choose the same child (SEMANTICS.md "utility").

use behaved_format::utility::{Choice, Curve, Score, ScoreOf};
use behaved_runtime::utility::{Compensated, Consideration};

/// A registered consideration, built from its JSON parameters.
pub(crate) type ConsBox<C> = Box<dyn Consideration<C> + Send + Sync>;

/// Builds a consideration leaf at its place (the indices down to it), or
/// reports why it cannot and gives `None`.
pub(crate) type Build<'b, C> = &'b mut dyn FnMut(&behaved_format::model::Leaf, &[usize]) -> Option<ConsBox<C>>;

/// One node of a score program.
#[derive(Debug)]
pub(crate) enum ScoreNode {
    /// A consideration (index in `Scoring::considerations`), through a curve.
    Consider {
        cons: u32,
        curve: Option<Curve>,
        weight: f32,
    },
    /// The compensated product of `n` nodes from `first`.
    All { first: u32, n: u32, weight: f32 },
}

/// A `utility` node: how it chooses, and its children's scores (`n` nodes
/// from `first` in `Scoring::nodes`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct UtilityNode {
    pub choice: Choice,
    pub first: u32,
    pub n: u32,
}

/// The scores of every `utility` node of a tree.
pub(crate) struct Scoring<C: 'static> {
    pub considerations: Vec<ConsBox<C>>,
    pub nodes: Vec<ScoreNode>,
    /// Each node's label (`Score::label`), what `considered` events name a part by.
    pub labels: Vec<Box<str>>,
    pub utility: Vec<UtilityNode>,
    /// The most children of one `utility` node: the size of an agent's scratch.
    pub most: usize,
}

impl<C: 'static> Default for Scoring<C> {
    fn default() -> Self {
        Scoring {
            considerations: Vec::new(),
            nodes: Vec::new(),
            labels: Vec::new(),
            utility: Vec::new(),
            most: 0,
        }
    }
}

impl<C: 'static> Scoring<C> {
    /// Adds a `utility` node's scores; `build` makes each consideration (or
    /// reports why it cannot, returning `None`). Returns its index.
    pub(crate) fn add(&mut self, choice: Choice, scores: &[Score], build: Build<'_, C>) -> u32 {
        let first = self.nodes.len() as u32;
        self.reserve(scores.len());
        let mut at = Vec::new();
        for (i, s) in scores.iter().enumerate() {
            at.push(i);
            self.fill(first + i as u32, s, &mut at, build);
            at.pop();
        }
        self.most = self.most.max(scores.len());
        self.utility.push(UtilityNode {
            choice,
            first,
            n: scores.len() as u32,
        });
        (self.utility.len() - 1) as u32
    }

    fn reserve(&mut self, n: usize) {
        for _ in 0..n {
            self.nodes.push(ScoreNode::All {
                first: 0,
                n: 0,
                weight: 0.0,
            });
            self.labels.push(Box::default());
        }
    }

    fn fill(&mut self, slot: u32, s: &Score, at: &mut Vec<usize>, build: Build<'_, C>) {
        self.labels[slot as usize] = s.label().into();
        let node = match &s.of {
            ScoreOf::Consider { leaf, curve } => {
                let cons = match build(leaf, at) {
                    Some(c) => {
                        self.considerations.push(c);
                        (self.considerations.len() - 1) as u32
                    }
                    None => u32::MAX,
                };
                ScoreNode::Consider {
                    cons,
                    curve: curve.clone(),
                    weight: s.weight,
                }
            }
            ScoreOf::All(parts) => {
                let first = self.nodes.len() as u32;
                self.reserve(parts.len());
                for (i, p) in parts.iter().enumerate() {
                    at.push(i);
                    self.fill(first + i as u32, p, at, build);
                    at.pop();
                }
                ScoreNode::All {
                    first,
                    n: parts.len() as u32,
                    weight: s.weight,
                }
            }
        };
        self.nodes[slot as usize] = node;
    }

    /// Score program node `i` on `ctx` (the same value as [`score`](Self::score),
    /// to the bit), giving `each` its parts' positions, labels and values
    /// in order, as the compiled form's `Consideration::score_parts` gives
    /// them: each factor of an `all` (after its own curve and weight), a
    /// registered consideration's own parts when it is a product and has no
    /// curve, anything else as one part. Labels past the known ones are `""`.
    pub(crate) fn score_parts(&self, i: u32, ctx: &C, each: &mut dyn FnMut(u32, &str, f32)) -> f32 {
        let label = |k: u32| if k == 0 { &*self.labels[i as usize] } else { "" };
        match &self.nodes[i as usize] {
            ScoreNode::Consider {
                cons,
                curve: None,
                weight,
            } if self.considerations[*cons as usize].is_product() => {
                let mut k = 0;
                let v = self.considerations[*cons as usize].score_parts(ctx, &mut |p| {
                    each(k, label(k), p);
                    k += 1;
                });
                if *weight == 1.0 { v } else { v * weight }
            }
            ScoreNode::Consider { .. } => {
                let v = self.score(i, ctx);
                each(0, label(0), v);
                v
            }
            ScoreNode::All { first, n, weight } => {
                let mut p = Compensated::new(*n as usize);
                for k in *first..first + n {
                    let v = self.score(k, ctx);
                    each(k - first, &self.labels[k as usize], v);
                    p.push(v);
                }
                let v = p.value();
                if *weight == 1.0 { v } else { v * weight }
            }
        }
    }

    /// Score program node `i` on `ctx`, computed as the compiled form's
    /// `Curve::of`, `all(..)` and `.weight(w)` compute it.
    pub(crate) fn score(&self, i: u32, ctx: &C) -> f32 {
        match &self.nodes[i as usize] {
            ScoreNode::Consider { cons, curve, weight } => {
                let v = self.considerations[*cons as usize].score(ctx);
                let v = match curve {
                    Some(c) => c.eval(v),
                    None => v,
                };
                if *weight == 1.0 { v } else { v * weight }
            }
            ScoreNode::All { first, n, weight } => {
                let mut p = Compensated::new(*n as usize);
                for k in *first..first + n {
                    p.push(self.score(k, ctx));
                }
                let v = p.value();
                if *weight == 1.0 { v } else { v * weight }
            }
        }
    }
}
