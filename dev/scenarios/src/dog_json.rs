//! The Wild Dog's tree as JSON: [`FILE`] (the tree of
//! [`WildDog`](crate::dog::WildDog) in behaved-interp's format) and the manifest that describes those leaves to the studio's
//! editor. Compiled by `behave!` from the file (with `behaved`'s `json` feature),
//! its nodes are numbered and labelled as the interpreter and the editor
//! number and label them, so a recording of those dogs replays against an
//! edited copy of the file in the editor's preview:
//!
//! ```ignore
//! behave! {
//!     pub tree WildDogJson for DogCtx<'w> = json("examples/trees/wild_dog.json") {
//!         "findOrKeepTarget" => FindOrKeepTarget, "faceTarget" => FaceTarget,
//!         "moveAdjacent" => MoveAdjacent, "useAbilityIfAdjacent" => UseAbilityIfAdjacent,
//!     }
//! }
//! ```
//!
//! (`examples/dogs_studio.rs` does; the file's path is relative to the
//! compiling crate's `Cargo.toml`.)

use behaved::prelude::*;
use behaved_interp::{Manifest, NoParams, Registry};

use crate::dog::{FindOrKeepTarget, UseAbilityIfAdjacent};

/// The tree's file, relative to the workspace's root.
pub const FILE: &str = "examples/trees/wild_dog.json";

/// Stands in for a leaf in [`leaf_manifest`]'s registry, which only describes
/// the leaves' parameters (the real leaves tick a
/// [`DogCtx`](crate::dog::DogCtx), which borrows the world, and behaved-interp's
/// contexts are `'static`).
#[derive(Debug, Clone, Copy)]
struct Described;

impl Action<()> for Described {
    fn tick(&mut self, _: &mut ()) -> Status {
        Status::Failure
    }
}

/// The dog's leaves with their parameters, as the studio's editor reads them
/// (`Editor::with_leaves`, or `behaved-studio edit --leaves` from its JSON).
pub fn leaf_manifest() -> Manifest {
    let mut leaves: Registry<()> = Registry::new();
    leaves
        .action("findOrKeepTarget", |_: FindOrKeepTarget| Described)
        .action("faceTarget", |_: NoParams| Described)
        .action("moveAdjacent", |_: NoParams| Described)
        .action("useAbilityIfAdjacent", |_: UseAbilityIfAdjacent| Described);
    leaves.manifest()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_describes_the_leaves_of_the_file_with_their_parameters() {
        let m = leaf_manifest();
        let file = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join(FILE),
        )
        .unwrap();
        let params = |name: &str| -> Vec<String> {
            assert!(file.contains(&format!("\"type\": \"{name}\"")), "{name} is in {FILE}");
            let doc = m.actions[name].params.as_ref().unwrap();
            doc.iter().map(|p| p.name.clone()).collect()
        };
        assert_eq!(params("findOrKeepTarget"), ["dist", "leash"]);
        assert_eq!(params("useAbilityIfAdjacent"), ["ability"]);
        assert!(params("faceTarget").is_empty());
        assert!(params("moveAdjacent").is_empty());
        assert_eq!(m.actions.len(), 4);
    }
}
