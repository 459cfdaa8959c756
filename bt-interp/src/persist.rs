//! Saving and loading running agents (the `serde` feature); the format is
//! documented on [`Agent`].

use std::sync::Arc;

use serde::de::{self, DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use behaved_format::shown;
use behaved_runtime::Rng;

use crate::agent::{Agent, State};
use crate::definition::Definition;
use crate::invariants::check_state;
use crate::leaves::{ItemBuffer, Leaves};

const FIELDS: &[&str] = &[
    "fingerprint",
    "running",
    "rng",
    "ints",
    "times",
    "leaves",
    "items",
    "savedAt",
];

impl<C: 'static> Serialize for Agent<C> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // `items` only for trees with `forEach` nodes: other agents' saved
        // states stay as they were.
        let lists = !self.def.lists.is_empty();
        let mut st = s.serialize_struct("Agent", FIELDS.len() - usize::from(!lists))?;
        st.serialize_field("fingerprint", &self.def.fingerprint)?;
        st.serialize_field("running", &self.st.side.running)?;
        st.serialize_field("rng", &self.st.side.rng)?;
        st.serialize_field("ints", &*self.st.ints)?;
        st.serialize_field("times", &*self.st.side.times)?;
        st.serialize_field("leaves", &SavedLeaves(self))?;
        if lists {
            st.serialize_field("items", &SavedItems(self))?;
        }
        st.serialize_field("savedAt", &self.st.side.now)?;
        st.end()
    }
}

/// The persistent leaf columns of an agent, by action name.
struct SavedLeaves<'a, C: 'static>(&'a Agent<C>);

impl<C: 'static> Serialize for SavedLeaves<'_, C> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let saved: Vec<_> = (self.0.def.columns.iter().zip(self.0.st.leaves.iter()))
            .filter_map(|((name, _), leaves)| leaves.save().map(|l| (name, l)))
            .collect();
        let mut map = s.serialize_map(Some(saved.len()))?;
        for (name, leaves) in saved {
            map.serialize_entry(name, leaves)?;
        }
        map.end()
    }
}

/// The items of the agent's `forEach` nodes, one list per node.
struct SavedItems<'a, C: 'static>(&'a Agent<C>);

impl<C: 'static> Serialize for SavedItems<'_, C> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.st.items.iter().map(|b| b.save()))
    }
}

impl<C: 'static> Agent<C> {
    /// Loads an agent saved with `serde` (see [`Agent`]'s `Serialize`) to
    /// run `def`, which must be the definition it was saved from: same tree,
    /// same version of it (same [`Definition::fingerprint`]).
    ///
    /// ```
    /// use behaved_interp::{Agent, Registry};
    /// use behaved_runtime::{Action, Status};
    ///
    /// #[derive(Clone, serde::Serialize, serde::Deserialize)]
    /// struct Walk { steps: u32 }
    /// impl Action<()> for Walk {
    ///     fn enter(&mut self, _: &mut ()) { self.steps = 0; }
    ///     fn tick(&mut self, _: &mut ()) -> Status {
    ///         self.steps += 1;
    ///         if self.steps == 3 { Status::Success } else { Status::Running }
    ///     }
    /// }
    ///
    /// let mut leaves = Registry::new();
    /// leaves.persistent_action("walk", |_: behaved_interp::NoParams| Walk { steps: 0 });
    /// let def = leaves.load(r#"{"type": "action", "action": "walk"}"#)?;
    /// let mut npc = Agent::new(def.clone());
    /// npc.tick_at(&mut (), 0.0);                               // one step taken
    /// let saved = serde_json::to_string(&npc).unwrap();
    /// let mut loaded = Agent::load(def, &mut serde_json::Deserializer::from_str(&saved)).unwrap();
    /// assert_eq!(loaded.tick_at(&mut (), 1.0), Status::Running); // the second step
    /// assert_eq!(loaded.tick_at(&mut (), 2.0), Status::Success); // and the third
    /// # Ok::<(), behaved_interp::LoadError>(())
    /// ```
    pub fn load<'de, D: Deserializer<'de>>(def: Arc<Definition<C>>, deserializer: D) -> Result<Agent<C>, D::Error> {
        AgentSeed::new(def).deserialize(deserializer)
    }

    /// Moves every saved time of this agent by `by` seconds: its timers'
    /// starts, its cooldowns' last completions and the time of its last tick.
    /// For a game whose clock does not go on from where the save was made
    /// (one that restarts at 0 on loading): `by` is the clock's time now minus
    /// its time at the save ([`AgentSeed::resume_at`] does it on loading).
    pub fn shift_times(&mut self, by: f64) {
        for t in self.st.side.times.iter_mut() {
            // A cooldown never completed stays so.
            if *t != f64::MIN {
                *t += by;
            }
        }
        self.st.side.now += by;
    }
}

/// Loads a saved [`Agent`] for a definition: a [`DeserializeSeed`], for
/// agents saved inside larger structures (a save file with many NPCs).
pub struct AgentSeed<C: 'static> {
    def: Arc<Definition<C>>,
    /// The game's time now, when the saved times are to be shifted to it.
    resume_at: Option<f64>,
}

impl<C: 'static> AgentSeed<C> {
    /// Loads agents that run `def`.
    pub fn new(def: Arc<Definition<C>>) -> AgentSeed<C> {
        AgentSeed { def, resume_at: None }
    }

    /// Loads agents whose game clock now reads `now`, a clock that may have
    /// restarted since the save: every saved time is shifted by `now` minus
    /// the state's `savedAt` ([`Agent::shift_times`]), so that a timer with
    /// 2 s left when saved has 2 s left at `now`. A state saved before
    /// `savedAt` was recorded is not shifted.
    pub fn resume_at(mut self, now: f64) -> AgentSeed<C> {
        self.resume_at = Some(now);
        self
    }
}

impl<'de, C: 'static> DeserializeSeed<'de> for AgentSeed<C> {
    type Value = Agent<C>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Agent<C>, D::Error> {
        let resume_at = self.resume_at;
        let mut agent = d.deserialize_struct("Agent", FIELDS, AgentVisitor { def: self.def })?;
        if let (Some(now), Some(saved)) = (resume_at, agent.saved_at) {
            agent.agent.shift_times(now - saved);
        }
        Ok(agent.agent)
    }
}

/// A loaded agent and the time its state says it was saved at, if it says.
struct Loaded<C: 'static> {
    agent: Agent<C>,
    saved_at: Option<f64>,
}

struct AgentVisitor<C: 'static> {
    def: Arc<Definition<C>>,
}

impl<C: 'static> AgentVisitor<C> {
    fn check_fingerprint<E: de::Error>(&self, saved: u64) -> Result<(), E> {
        if saved == self.def.fingerprint {
            Ok(())
        } else {
            Err(E::custom(format!(
                "this state was saved from a different tree or another version of it \
                 (its fingerprint is {saved:#018x}, this definition's {:#018x})",
                self.def.fingerprint
            )))
        }
    }

    /// Assembles and checks the agent.
    fn finish<E: de::Error>(
        self,
        mut st: State<C>,
        ints: Vec<u32>,
        times: Vec<f64>,
        saved_at: Option<f64>,
    ) -> Result<Loaded<C>, E> {
        let def = self.def;
        if times.len() != def.times.len() {
            return Err(E::custom(format!(
                "{} timestamps, but this tree has {}",
                times.len(),
                def.times.len()
            )));
        }
        check_times(&def, &times, saved_at).map_err(|e| E::custom(format!("impossible state: {e}")))?;
        check_state(&def, &ints, st.side.running).map_err(|e| E::custom(format!("impossible state: {e}")))?;
        // A running `forEach` is at one of its items; an idle one holds none.
        for (f, row) in def.cold.iter().zip(&def.table) {
            if matches!(
                f.op,
                behaved_runtime::NodeKind::ForEach | behaved_runtime::NodeKind::Pick
            ) {
                let (at, held) = (ints[f.slot as usize] as usize, st.items[f.leaf as usize].len());
                if (at == 0 && held != 0) || (at != 0 && at > held) {
                    return Err(E::custom(format!(
                        "impossible state: the forEach at {:?} is at item {at} of the {held} it holds",
                        row.path
                    )));
                }
            }
        }
        st.ints = ints.into_boxed_slice();
        st.side.times = times.into_boxed_slice();
        if let Some(t) = saved_at {
            st.side.now = t;
        }
        Ok(Loaded {
            agent: Agent { def, st },
            saved_at,
        })
    }
}

/// Checks every saved timestamp: a finite time, not after the state's own
/// `saved_at` (when it has one), or the value a new agent holds (a timer
/// never started).
fn check_times<C>(def: &Definition<C>, times: &[f64], saved_at: Option<f64>) -> Result<(), String> {
    if let Some(t) = saved_at
        && !t.is_finite()
    {
        return Err(format!("it was saved at {t:?}, not a finite time"));
    }
    for (id, (f, row)) in def.cold.iter().zip(&def.table).enumerate() {
        if !f.has_timer() {
            continue;
        }
        let (i, t) = (f.time as usize, times[f.time as usize]);
        if t.to_bits() == def.times[i].to_bits() {
            continue;
        }
        let node = || {
            let at = if row.path.is_empty() {
                String::new()
            } else {
                format!(" at `{}`", row.path)
            };
            format!("the timer of node {id} ({}{at})", behaved_format::clipped(&row.label))
        };
        if !t.is_finite() {
            return Err(format!("{} started at {t:?}, not a finite time", node()));
        }
        if let Some(saved) = saved_at
            && t > saved
        {
            return Err(format!(
                "{} started at {t:?}, after the state was saved (at {saved:?}); \
                 a game whose clock restarted shifts the saved times (`AgentSeed::resume_at`)",
                node()
            ));
        }
    }
    Ok(())
}

impl<'de, C: 'static> Visitor<'de> for AgentVisitor<C> {
    type Value = Loaded<C>;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a saved behaved-interp agent (fingerprint, running, rng, ints, times, leaves)")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loaded<C>, A::Error> {
        let missing = |i: usize| A::Error::invalid_length(i, &"6 fields (7 with forEach nodes)");
        let fingerprint: u64 = seq.next_element()?.ok_or_else(|| missing(0))?;
        self.check_fingerprint(fingerprint)?;
        let mut st = State::fresh(&self.def, Rng::default());
        st.side.running = seq.next_element()?.ok_or_else(|| missing(1))?;
        st.side.rng = seq.next_element()?.ok_or_else(|| missing(2))?;
        let ints: Vec<u32> = seq.next_element()?.ok_or_else(|| missing(3))?;
        let times: Vec<f64> = seq.next_element()?.ok_or_else(|| missing(4))?;
        let seed = LeavesSeed {
            def: &self.def,
            leaves: &mut st.leaves,
        };
        seq.next_element_seed(seed)?.ok_or_else(|| missing(5))?;
        if !self.def.lists.is_empty() {
            seq.next_element_seed(ItemsSeed(&mut st.items))?
                .ok_or_else(|| missing(6))?;
        }
        // Last, and absent from states saved before it was recorded.
        let saved_at: Option<f64> = seq.next_element()?;
        self.finish(st, ints, times, saved_at)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loaded<C>, A::Error> {
        // The fingerprint comes first, so that a state of another tree is
        // reported as such rather than as whatever its fields fail on.
        match map.next_key::<String>()? {
            Some(k) if k == "fingerprint" => self.check_fingerprint(map.next_value()?)?,
            _ => return Err(A::Error::custom("a saved agent starts with its `fingerprint`")),
        }
        let mut st = State::fresh(&self.def, Rng::default());
        let (mut running, mut rng, mut ints, mut times, mut leaves, mut items) = (None, None, None, None, false, false);
        let mut saved_at: Option<f64> = None;
        while let Some(key) = map.next_key::<String>()? {
            let dup = match key.as_str() {
                "running" => running.replace(map.next_value()?).is_some(),
                "rng" => rng.replace(map.next_value()?).is_some(),
                "ints" => ints.replace(map.next_value::<Vec<u32>>()?).is_some(),
                "times" => times.replace(map.next_value::<Vec<f64>>()?).is_some(),
                "savedAt" => saved_at.replace(map.next_value()?).is_some(),
                "leaves" => {
                    map.next_value_seed(LeavesSeed {
                        def: &self.def,
                        leaves: &mut st.leaves,
                    })?;
                    std::mem::replace(&mut leaves, true)
                }
                "items" if !self.def.lists.is_empty() => {
                    map.next_value_seed(ItemsSeed(&mut st.items))?;
                    std::mem::replace(&mut items, true)
                }
                other => return Err(A::Error::unknown_field(other, FIELDS)),
            };
            if dup {
                return Err(A::Error::custom(format!("duplicate field `{key}`")));
            }
        }
        st.side.running = running.ok_or_else(|| A::Error::missing_field("running"))?;
        st.side.rng = rng.ok_or_else(|| A::Error::missing_field("rng"))?;
        if !leaves {
            return Err(A::Error::missing_field("leaves"));
        }
        if !items && !self.def.lists.is_empty() {
            return Err(A::Error::missing_field("items"));
        }
        let ints = ints.ok_or_else(|| A::Error::missing_field("ints"))?;
        let times = times.ok_or_else(|| A::Error::missing_field("times"))?;
        self.finish(st, ints, times, saved_at)
    }
}

/// Loads the persistent leaf columns into a fresh agent's leaves.
struct LeavesSeed<'a, C: 'static> {
    def: &'a Definition<C>,
    leaves: &'a mut [Box<dyn Leaves<C>>],
}

impl<'de, C: 'static> DeserializeSeed<'de> for LeavesSeed<'_, C> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, C: 'static> Visitor<'de> for LeavesSeed<'_, C> {
    type Value = ();

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a map from action names to their saved leaves")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let persistent: Vec<bool> = self.leaves.iter().map(|l| l.save().is_some()).collect();
        let mut seen = vec![false; persistent.len()];
        while let Some(name) = map.next_key::<String>()? {
            let Some(i) = self.def.columns.iter().position(|(n, _)| *n == name) else {
                return Err(A::Error::custom(format!(
                    "this tree has no action leaves named {}",
                    shown(&name)
                )));
            };
            if !persistent[i] {
                return Err(A::Error::custom(format!(
                    "the leaves of {} were saved, but this registry does not persist them \
                     (register them with `persistent_action`)",
                    shown(&name)
                )));
            }
            if std::mem::replace(&mut seen[i], true) {
                return Err(A::Error::custom(format!(
                    "the leaves of {} are saved twice",
                    shown(&name)
                )));
            }
            map.next_value_seed(ColumnSeed(&mut *self.leaves[i]))
                .map_err(|e| A::Error::custom(format!("the leaves of {}: {e}", shown(&name))))?;
        }
        if let Some(i) = (0..seen.len()).find(|&i| persistent[i] && !seen[i]) {
            return Err(A::Error::custom(format!(
                "the leaves of {} are missing (this registry persists them)",
                shown(&self.def.columns[i].0)
            )));
        }
        Ok(())
    }
}

/// Loads the items of every `forEach` node, in node order.
struct ItemsSeed<'a, C: 'static>(&'a mut [Box<dyn ItemBuffer<C>>]);

impl<'de, C: 'static> DeserializeSeed<'de> for ItemsSeed<'_, C> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, C: 'static> Visitor<'de> for ItemsSeed<'_, C> {
    type Value = ();

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "the items of {} forEach nodes", self.0.len())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let n = self.0.len();
        for (i, buffer) in self.0.iter_mut().enumerate() {
            seq.next_element_seed(BufferSeed(&mut **buffer))?
                .ok_or_else(|| A::Error::invalid_length(i, &items_of(n).as_str()))?;
        }
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(A::Error::invalid_length(n + 1, &items_of(n).as_str()));
        }
        Ok(())
    }
}

fn items_of(n: usize) -> String {
    format!("the items of {n} forEach nodes")
}

/// Loads one `forEach` node's items through their own (type-erased) `Deserialize`.
struct BufferSeed<'a, C: 'static>(&'a mut dyn ItemBuffer<C>);

impl<'de, C: 'static> DeserializeSeed<'de> for BufferSeed<'_, C> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let mut erased = <dyn erased_serde::Deserializer>::erase(d);
        self.0.load(&mut erased).map_err(D::Error::custom)
    }
}

/// Loads one column of leaves through its own (type-erased) `Deserialize`.
struct ColumnSeed<'a, C: 'static>(&'a mut dyn Leaves<C>);

impl<'de, C: 'static> DeserializeSeed<'de> for ColumnSeed<'_, C> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let mut erased = <dyn erased_serde::Deserializer>::erase(d);
        self.0.load(&mut erased).map_err(D::Error::custom)
    }
}
