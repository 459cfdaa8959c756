//! Saving and loading a running tree: `serde::Serialize` and `Deserialize`
//! for the generated struct, emitted inside `::behaved::__private::if_serde!` so they exist
//! exactly when `behaved` is built with its `serde` feature.
//!
//! The state is one flat tuple: the tree's fingerprint, whether the root is
//! running, the RNG (if the tree has one), then every saved field in
//! declaration order. Loading starts from `new()` (so leaves that are not
//! `#[persist]` keep their constructor value) and rejects a fingerprint that
//! is not this tree's.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use super::{Field, first_span, subtree_item};
use crate::lower::Lowered;

/// The `Serialize` and `Deserialize` impls of one tree; `async_checks` go
/// first in each function that holds the tree (`super::async_type_checks`).
pub fn impls(l: &Lowered, fields: &[Field], async_checks: &TokenStream) -> TokenStream {
    let name = &l.tree.name;
    let private = crate::facade::private(Span::call_site());
    let serde = quote!(#private::serde);
    let saved: Vec<&Field> = fields.iter().filter(|f| f.saved).collect();
    let rng: Vec<TokenStream> = if l.uses_rng { vec![quote!(__rng)] } else { Vec::new() };
    let len = 2 + rng.len() + saved.len() + super::times::saved_len(l);
    let save_now = super::times::save(l);
    let load_now = super::times::load(l);
    // A `#[persist]` leaf's code carries the leaf's span, so that a leaf
    // without serde's traits is an error at the leaf.
    let at = |f: &Field| f.persisted_at.unwrap_or_else(Span::call_site);
    // The field's name too: a call's span runs from its first token to its last.
    let named_at = |f: &Field| {
        let mut name = f.name.clone();
        name.set_span(at(f));
        name
    };
    // One plain call per field (`__bt::save`, `__bt::load`), which keeps the
    // first error: a `?` and a closure per field made rustc's type check of
    // a big tree's `visit_seq` grow faster than the tree (BENCHMARKS.md).
    let stores = saved.iter().map(|f| {
        let name = named_at(f);
        match &f.checked {
            Some(ty) => {
                let tree_ref = subtree_item(ty, quote!(tree_ref));
                quote_spanned!(first_span(ty)=> __bt::save(&mut __save, #tree_ref(&self.#name));)
            }
            None => quote_spanned!(at(f)=> __bt::save(&mut __save, &self.#name);),
        }
    });
    let loads = rng
        .iter()
        .map(|f| quote!(__bt::load(&mut __load, &mut __tree.#f);))
        .chain(saved.iter().map(|f| {
            let name = &f.name;
            if let Some(ty) = &f.checked {
                let as_tree = subtree_item(ty, quote!(as_tree));
                return quote_spanned!(first_span(ty)=> __bt::load(&mut __load, #as_tree(&mut __tree.#name)););
            }
            match f.persisted_at {
                // Through a `let`: rustc reports the call's failed bound
                // across the whole `behave!` otherwise.
                Some(at) => quote_spanned!(at=> { let __field = &mut __tree.#name; __bt::load(&mut __load, __field); }),
                None => quote!(__bt::load(&mut __load, &mut __tree.#name);),
            }
        }));
    let expecting = format!("the saved running state of the tree `{name}`");
    quote! {
        #private::if_serde! {
            impl #serde::Serialize for #name {
                fn serialize<__S: #serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    use #private as __bt;
                    let mut __save = __bt::Save::new(#serde::Serializer::serialize_tuple(__serializer, #len)?);
                    __bt::save(&mut __save, &Self::FINGERPRINT);
                    __bt::save(&mut __save, &self.__running);
                    #( __bt::save(&mut __save, &self.#rng); )*
                    #(#stores)*
                    #save_now
                    __save.finish()
                }
            }

            impl<'de> #serde::Deserialize<'de> for #name {
                fn deserialize<__D: #serde::Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                    #async_checks
                    struct __Visitor;
                    impl<'de> #serde::de::Visitor<'de> for __Visitor {
                        type Value = #name;
                        fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            f.write_str(#expecting)
                        }
                        fn visit_seq<__A: #serde::de::SeqAccess<'de>>(self, mut __seq: __A) -> ::core::result::Result<#name, __A::Error> {
                            use #private as __bt;
                            #async_checks
                            let __fingerprint: u64 = __seq.next_element()?.ok_or_else(|| #serde::de::Error::invalid_length(0, &self))?;
                            if __fingerprint != #name::FINGERPRINT {
                                return ::core::result::Result::Err(#serde::de::Error::custom(::core::format_args!(
                                    "this state was saved from a different tree or another version of `{}` (fingerprint {:#018x}, expected {:#018x})",
                                    ::core::stringify!(#name),
                                    __fingerprint,
                                    #name::FINGERPRINT,
                                )));
                            }
                            let mut __tree = #name::new();
                            let mut __load = __bt::Load::new(__seq, 1, &self);
                            __bt::load(&mut __load, &mut __tree.__running);
                            #(#loads)*
                            #load_now
                            __load.finish().map(|()| __tree)
                        }
                    }
                    __deserializer.deserialize_tuple(#len, __Visitor)
                }
            }
        }
    }
}
