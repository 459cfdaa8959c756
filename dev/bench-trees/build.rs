//! Writes T3, the 1,365-node synthetic tree, into `OUT_DIR` from its generator
//! (`synthetic_gen.rs`), as the differential test's build script writes its
//! random trees: `synthetic_generated.rs` (the `behave!` tree and its
//! hand-written twin, included by `synthetic.rs`) and `t3_synthetic.json` (its
//! JSON form, loaded by `interp_forms.rs`). Nothing generated is checked in.

#[path = "synthetic_gen.rs"]
#[allow(dead_code)]
mod synthetic_gen;

fn main() {
    println!("cargo::rerun-if-changed=synthetic_gen.rs");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    std::fs::write(out.join("synthetic_generated.rs"), synthetic_gen::t3_file()).unwrap();
    std::fs::write(out.join("t3_synthetic.json"), synthetic_gen::t3_json()).unwrap();
}
