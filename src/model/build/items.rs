//! The item pre-scan: consts, `Api` fields, aliases, traits and `Api`-returning functions, recorded
//! before bodies are walked so that uses above a declaration resolve too.

use syn::{Expr, Type};

use super::handles::{alias_candidate, api_kind};
use super::{generic_bounds, generic_names, strip, Builder};

impl Builder<'_> {
    /// Record item-level facts (consts, `Api` fields, `Api`-returning functions) before walking
    /// bodies, so uses above a declaration resolve too.
    pub(super) fn index_items(&mut self, items: &[syn::Item]) {
        for item in items {
            if let syn::Item::Type(t) = item {
                if super::callbacks::is_function_type(&t.ty, &[])
                    && self.function_aliases.len() < 64
                {
                    self.function_aliases.push(t.ident.to_string());
                }
            }
        }
        for item in items {
            match item {
                syn::Item::Const(c) => self.index_const(&c.ident, &c.expr),
                syn::Item::Static(s) => self.index_const(&s.ident, &s.expr),
                syn::Item::Struct(s) => {
                    let generics: Vec<String> = generic_names(&s.generics).collect();
                    let bounds = generic_bounds(&s.generics);
                    let owner = s.ident.to_string();
                    for field in &s.fields {
                        let Some(ident) = &field.ident else { continue };
                        let ty = super::types::declared_type(&field.ty, Some(&owner), &bounds);
                        self.field_types
                            .entry((owner.clone(), ident.to_string()))
                            .and_modify(|known| {
                                if known.as_ref() != Some(&ty) {
                                    *known = None;
                                }
                            })
                            .or_insert(Some(ty));
                        if super::callbacks::is_function_type(&field.ty, &self.function_aliases) {
                            self.facts.items.callback_fields.push(ident.to_string());
                            self.callback_fields.insert(ident.to_string());
                        }
                        if let Some(kind) = api_kind(&field.ty, &generics) {
                            self.facts.items.api_fields.push((ident.to_string(), kind));
                        } else if let Some(alias) = alias_candidate(&field.ty) {
                            self.facts
                                .items
                                .alias_fields
                                .push((ident.to_string(), alias));
                        }
                    }
                }
                // `type Leases = kube_client::Api<Lease>;`
                syn::Item::Type(t) => {
                    if let Some(kind) = api_kind(&t.ty, &[]) {
                        self.facts
                            .items
                            .api_aliases
                            .push((t.ident.to_string(), kind));
                    }
                }
                syn::Item::Fn(f) => self.index_fn(&f.sig, &[]),
                syn::Item::Impl(i) => {
                    let generics: Vec<String> = generic_names(&i.generics).collect();
                    let trait_name = i.trait_.as_ref().and_then(|(_, p, _)| p.segments.last());
                    let self_type = match &*i.self_ty {
                        Type::Path(p) => p.path.segments.last(),
                        _ => None,
                    };
                    if let (Some(t), Some(ty)) = (trait_name, self_type) {
                        self.facts
                            .items
                            .trait_impls
                            .push((t.ident.to_string(), ty.ident.to_string()));
                    }
                    for it in &i.items {
                        match it {
                            syn::ImplItem::Fn(f) => self.index_fn(&f.sig, &generics),
                            syn::ImplItem::Const(c) => self.index_const(&c.ident, &c.expr),
                            _ => {}
                        }
                    }
                }
                syn::Item::Trait(t) => {
                    self.facts.items.traits.push(t.ident.to_string());
                    for it in &t.items {
                        if let syn::TraitItem::Fn(f) = it {
                            self.index_fn(&f.sig, &[]);
                        }
                    }
                }
                syn::Item::Mod(m) => {
                    if let Some((_, items)) = &m.content {
                        self.index_items(items);
                    }
                }
                _ => {}
            }
        }
    }

    fn index_const(&mut self, ident: &syn::Ident, expr: &Expr) {
        if let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = strip(expr)
        {
            self.consts.insert(ident.to_string(), s.value());
            self.facts.items.consts.push((ident.to_string(), s.value()));
        }
    }

    fn index_fn(&mut self, sig: &syn::Signature, outer: &[String]) {
        if let syn::ReturnType::Type(_, ty) = &sig.output {
            let mut generics: Vec<String> = outer.to_vec();
            generics.extend(generic_names(&sig.generics));
            if let Some(kind) = api_kind(ty, &generics) {
                self.facts
                    .items
                    .api_returning_fns
                    .push((sig.ident.to_string(), kind));
            }
        }
    }
}
