//! What a controller's builder chain says about how it runs its reconciles.

use syn::Expr;

use super::strip;
use crate::model::Concurrency;

/// How many reconciles the controller `run` is called on runs at once, from its builder chain
/// (`Controller::new(..).with_config(Config::default().concurrency(1)).run(..)`).
pub(super) fn concurrency(receiver: &Expr) -> Concurrency {
    let mut expr = strip(receiver);
    // The chain is short; the bound keeps a pathological one linear.
    for _ in 0..64 {
        let Expr::MethodCall(m) = expr else {
            return Concurrency::Many;
        };
        match m.method.to_string().as_str() {
            "with_config" => return m.args.first().map_or(Concurrency::NotVisible, config),
            "concurrency" => return limit(m),
            _ => expr = strip(&m.receiver),
        }
    }
    Concurrency::NotVisible
}

/// A `Config` as written: `Config::default().concurrency(n)` (any builder calls around it).
fn config(expr: &Expr) -> Concurrency {
    let mut expr = strip(expr);
    for _ in 0..64 {
        match expr {
            Expr::MethodCall(m) if m.method == "concurrency" => return limit(m),
            Expr::MethodCall(m) => expr = strip(&m.receiver),
            // `Config::default()`: no limit.
            Expr::Call(c) if is_config_default(&c.func) => return Concurrency::Many,
            _ => return Concurrency::NotVisible,
        }
    }
    Concurrency::NotVisible
}

/// `.concurrency(n)` with a literal `n`: 1 is one at a time, anything else several (0 is kube's
/// "no limit").
fn limit(call: &syn::ExprMethodCall) -> Concurrency {
    match call.args.first().map(strip) {
        Some(Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        })) => match n.base10_parse::<u64>() {
            Ok(1) => Concurrency::One,
            Ok(_) => Concurrency::Many,
            Err(_) => Concurrency::NotVisible,
        },
        _ => Concurrency::NotVisible,
    }
}

/// `Config::default`, `controller::Config::default`, `Default::default`.
fn is_config_default(func: &Expr) -> bool {
    let Expr::Path(p) = strip(func) else {
        return false;
    };
    let segments: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    matches!(segments.as_slice(), [.., ty, f] if f == "default" && (ty == "Config" || ty == "Default"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(src: &str) -> Concurrency {
        concurrency(&syn::parse_str::<Expr>(src).unwrap())
    }

    #[test]
    fn reads_the_limit_in_the_chain() {
        assert_eq!(
            of("Controller::new(api, wc).owns(x, wc)"),
            Concurrency::Many
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(Config::default().concurrency(1))"),
            Concurrency::One
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(controller::Config::default().debounce(d).concurrency(1)).shutdown_on_signal()"),
            Concurrency::One
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(Config::default().concurrency(4))"),
            Concurrency::Many
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(Config::default())"),
            Concurrency::Many
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(config)"),
            Concurrency::NotVisible
        );
        assert_eq!(
            of("Controller::new(api, wc).with_config(Config::default().concurrency(n))"),
            Concurrency::NotVisible
        );
    }
}
