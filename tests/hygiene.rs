//! The generated code adds no warnings to a user crate that denies them, and
//! works with user items named like the runtime's (`Result`, `Ok`, `Status`,
//! `Option`, `Some`) in scope: it reaches everything through absolute paths.
#![deny(warnings, missing_docs, unused_qualifications, unused_results)]
#![allow(dead_code)]

/// Adversarial names that would break an expansion using relative paths.
mod adversarial {
    /// Not `core::result::Result`.
    pub struct Result;
    /// Not `Result::Ok`.
    pub struct Ok;
    /// Not `behaved::Status`.
    pub struct Status;
    /// Not `core::option::Option`.
    pub struct Option;
    /// Not `Option::Some`.
    pub struct Some;
    /// Not `Default`.
    pub trait Default {}
    /// Not `Clock`.
    pub trait Clock {}

    /// A context.
    pub struct Ctx {
        /// Time.
        pub now: f64,
        /// A flag.
        pub ok: bool,
    }

    impl behaved::Clock for Ctx {
        fn now(&self) -> f64 {
            self.now
        }
    }

    /// A leaf.
    pub struct Leaf;
    impl behaved::Action<Ctx> for Leaf {
        fn tick(&mut self, _: &mut Ctx) -> behaved::Status {
            behaved::Status::Success
        }
    }

    behaved::behave! {
        /// Every node kind of the foundation, in a crate that denies warnings.
        pub tree Strict for Ctx {
            reactive selector {
                sequence { cond(|c| c.ok), Leaf, act(|c| c.ok = false), wait(0.5) },
                parallel(success = 1, failure = 2) { running, success },
                parallel(main) { failure, running },
                reactive sequence { invert { force_success { force_failure { success } } } },
                selector { repeat(3) { retry(2) { until_fail { until_success { loop { wait(0) } } } } } },
                subtree(Inner),
            }
        }
        /// A subtree.
        pub tree Inner for Ctx { parallel(all) { success } }
    }
}

#[test]
fn strict_tree_compiles_and_runs() {
    let mut tree = adversarial::Strict::new();
    let mut ctx = adversarial::Ctx { now: 0.0, ok: true };
    assert_eq!(tree.tick(&mut ctx), behaved::Status::Running);
}

/// With the prelude in scope, the expansion's absolute paths must not trip
/// `unused_qualifications`.
mod with_prelude {
    use behaved::prelude::*;

    /// A context.
    pub struct Ctx {
        /// Time.
        pub now: f64,
    }

    impl Clock for Ctx {
        fn now(&self) -> f64 {
            self.now
        }
    }

    behave! {
        /// A tree.
        pub tree Plain for Ctx { sequence { wait(1.0), act(|_| Status::Success), subtree(Sub) } }
        /// A subtree.
        pub tree Sub for Ctx { reactive sequence { success } }
    }

    #[test]
    fn plain_tree_runs() {
        let mut tree = Plain::new();
        assert_eq!(tree.tick(&mut Ctx { now: 0.0 }), Status::Running);
        assert_eq!(tree.tick(&mut Ctx { now: 1.0 }), Status::Success);
    }
}
