//! One object per provider, bound as a global named after it.
//!
//! The generated proxy answers any string key with an async function that dispatches
//! `(provider, key, codec-JSON args)` to the host and unwraps the envelope, exactly as the
//! reference's sandbox does (so `then` is a function and symbol keys are `undefined`). A
//! provider may bring its own proxy source instead, evaluated where `__dispatch` is in scope.

use rquickjs::context::EvalOptions;
use rquickjs::{CatchResultExt, CaughtError, Ctx, Function, Object, Value};

use super::failure::StartFailure;
use super::v8_messages::is_v8_keyword;
use crate::protocol::ProviderDescriptor;

/// Binds every provider's object as a global.
pub(super) fn bind_providers<'js>(
    ctx: &Ctx<'js>,
    internal: &Object<'js>,
    providers: &[ProviderDescriptor],
    fail: &dyn Fn(CaughtError<'js>, &str) -> StartFailure,
) -> Result<(), StartFailure> {
    let globals = ctx.globals();
    for provider in providers {
        check_name(&provider.name)?;
        let object: Value = match &provider.proxy_source {
            Some(source) => {
                let wrapped = format!("(function (__dispatch) {{ return (\n{source}\n); }})");
                let mut options = EvalOptions::default();
                options.filename = Some(format!("proxy:{}", provider.name));
                let factory: Function = ctx
                    .eval_with_options(wrapped.as_str(), options)
                    .catch(ctx)
                    .map_err(|e| fail(e, &wrapped))?;
                let dispatch: Value = internal
                    .get("dispatch")
                    .catch(ctx)
                    .map_err(|e| fail(e, ""))?;
                factory
                    .call((dispatch,))
                    .catch(ctx)
                    .map_err(|e| fail(e, source))?
            }
            None => {
                let make: Function = internal
                    .get("makeProxy")
                    .catch(ctx)
                    .map_err(|e| fail(e, ""))?;
                let positional = provider.positional_args != Some(false);
                make.call((provider.name.as_str(), positional))
                    .catch(ctx)
                    .map_err(|e| fail(e, ""))?
            }
        };
        globals
            .set(provider.name.as_str(), object)
            .catch(ctx)
            .map_err(|e| fail(e, ""))?;
    }
    Ok(())
}

/// A provider name must be an identifier. A keyword fails to start as the reference's
/// generated `const <name> = ...` fails; anything else is refused as invalid.
fn check_name(name: &str) -> Result<(), StartFailure> {
    let mut chars = name.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if !valid {
        return Err(StartFailure::Invalid(format!(
            "provider name \"{name}\" is not a valid JavaScript identifier"
        )));
    }
    if is_v8_keyword(name) {
        return Err(StartFailure::Text(format!(
            "Failed to start Worker:\nUncaught SyntaxError: Unexpected token '{name}'"
        )));
    }
    Ok(())
}
