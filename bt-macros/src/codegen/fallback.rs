//! The stand-in a tree with errors becomes: the same public items, so the rest
//! of the user's crate type-checks and only the real errors are reported.

use super::*;

/// What is emitted for a tree with errors: a stand-in with the same public
/// items (constructors, `tick`, `run`, `reset`, the constants, `Default`, the
/// `Tree` and `Subtree` impls and serde's impls), so the rest of the user's crate
/// type-checks and the user sees only the real errors.
pub fn fallback(t: &Tree) -> TokenStream {
    let rt = rt_path();
    let (attrs, cfgs) = split_attrs(t);
    let (vis, name) = (&t.vis, &t.name);
    let ctx = elided(&t.ctx);
    let serde = quote!(#rt::serde);
    let never = quote!(::core::unreachable!("`{}` has errors", ::core::stringify!(#name)));
    let subtree_impl = subtree_impl(name, &quote!());
    quote! {
        #(#cfgs)*
        #(#attrs)*
        #vis struct #name {}

        #(#cfgs)*
        impl #name {
            /// Not generated: the tree has errors.
            pub const NODES: &'static [#rt::NodeInfo] = &[];
            /// Not generated: the tree has errors.
            pub const NODE_COUNT: u32 = 0;
            /// Not generated: the tree has errors.
            pub const FINGERPRINT: u64 = 0;
            /// Not generated: the tree has errors.
            pub const JSON: &'static str = "";
            /// Not generated: the tree has errors.
            pub const READS: &'static [(u32, &'static [&'static str])] = &[];
            /// Not generated: the tree has errors.
            pub const TICK_WORK: u64 = 0;
            /// Not generated: the tree has errors.
            pub fn read_fields(&self, _id: u32) -> ::core::option::Option<&'static [&'static str]> {
                ::core::option::Option::None
            }
            /// Not generated: the tree has errors.
            pub fn new() -> Self {
                Self {}
            }
            /// Not generated: the tree has errors.
            pub fn with_seed(_seed: u64) -> Self {
                Self {}
            }
            #rt::no_saved_times!();
            /// Not generated: the tree has errors.
            pub fn tick<__C: ?Sized>(&mut self, _ctx: &mut __C) -> #rt::Status {
                #never
            }
            /// Not generated: the tree has errors.
            pub fn run<__C: ?Sized>(&mut self, _ctx: &mut __C, _max_ticks: u32) -> #rt::Run {
                #never
            }
            /// Not generated: the tree has errors.
            pub fn reset<__C: ?Sized>(&mut self, _ctx: &mut __C) {}
        }

        #(#cfgs)*
        impl ::core::default::Default for #name {
            fn default() -> Self {
                Self::new()
            }
        }

        #(#cfgs)*
        impl #rt::Tree<#ctx> for #name {
            type Row = #rt::NodeInfo;
            fn nodes(&self) -> &[#rt::NodeInfo] {
                &[]
            }
            fn tick_observed<__O: #rt::Observer + ?Sized>(&mut self, _: &mut #ctx, _: f64, _: &mut __O) -> #rt::Status {
                #never
            }
            fn reset_observed<__O: #rt::Observer + ?Sized>(&mut self, _: &mut #ctx, _: &mut __O) {}
            fn is_running(&self) -> bool {
                false
            }
        }

        #(#cfgs)*
        impl #rt::Generated<#ctx> for #name {
            fn __tick<__O: #rt::Observer + ?Sized>(&mut self, _: &mut #ctx, _: &mut #rt::Env<'_, __O>, _: bool) -> #rt::Status {
                #never
            }
            fn __tick_fast<__O: #rt::Observer + ?Sized>(&mut self, _: &mut #ctx, _: &mut #rt::Env<'_, __O>, _: bool) -> #rt::Status {
                #never
            }
            fn __wake(&self, _: f64) -> #rt::Wake {
                #never
            }
            fn __halt<__O: #rt::Observer + ?Sized>(&mut self, _: &mut #ctx, _: &mut #rt::Env<'_, __O>) {}
            fn __done(&mut self, _: bool, _: #rt::Rng) {}
        }

        #(#cfgs)*
        #subtree_impl

        #(#cfgs)*
        #rt::if_serde! {
            impl #serde::Serialize for #name {
                fn serialize<__S: #serde::Serializer>(&self, _: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    #never
                }
            }
            impl<'de> #serde::Deserialize<'de> for #name {
                fn deserialize<__D: #serde::Deserializer<'de>>(_: __D) -> ::core::result::Result<Self, __D::Error> {
                    #never
                }
            }
        }
    }
}
