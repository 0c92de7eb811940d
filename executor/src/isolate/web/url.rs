//! URL parsing (`url`, the WHATWG URL standard), form encoding, and URLPattern
//! (`urlpattern`), as functions `url.js` calls.

use crate::isolate::text::Usv;
use rquickjs::{Ctx, Function, Object};
use url::Url;
use url::form_urlencoded;

/// The fields of a parsed URL, in the order `url.js` reads them.
fn parts(url: &Url) -> Vec<String> {
    use url::quirks;
    vec![
        quirks::href(url).to_string(),
        quirks::origin(url),
        quirks::protocol(url).to_string(),
        quirks::username(url).to_string(),
        quirks::password(url).to_string(),
        quirks::host(url).to_string(),
        quirks::hostname(url).to_string(),
        quirks::port(url).to_string(),
        quirks::pathname(url).to_string(),
        quirks::search(url).to_string(),
        quirks::hash(url).to_string(),
    ]
}

fn parse(href: &str, base: Option<&str>) -> Option<Url> {
    match base {
        Some(base) => Url::parse(base).ok()?.join(href).ok(),
        None => Url::parse(href).ok(),
    }
}

/// Applies one setter the way the URL standard does; an invalid value leaves the URL as it was.
fn set(url: &mut Url, field: &str, value: &str) {
    use url::quirks;
    let _ = match field {
        "href" => {
            if let Ok(parsed) = Url::parse(value) {
                *url = parsed;
            }
            Ok(())
        }
        "protocol" => quirks::set_protocol(url, value),
        "username" => quirks::set_username(url, value),
        "password" => quirks::set_password(url, value),
        "host" => quirks::set_host(url, value),
        "hostname" => quirks::set_hostname(url, value),
        "port" => quirks::set_port(url, value),
        "pathname" => {
            quirks::set_pathname(url, value);
            Ok(())
        }
        "search" => {
            quirks::set_search(url, value);
            Ok(())
        }
        "hash" => {
            quirks::set_hash(url, value);
            Ok(())
        }
        _ => Ok(()),
    };
}

pub(super) fn natives<'js>(ctx: &Ctx<'js>, natives: &Object<'js>) -> rquickjs::Result<()> {
    natives.set(
        "urlParse",
        Function::new(ctx.clone(), |Usv(href): Usv, base: Option<Usv>| {
            parse(&href, base.as_ref().map(|b| b.0.as_str())).map(|url| parts(&url))
        })?,
    )?;
    natives.set(
        "urlSet",
        Function::new(
            ctx.clone(),
            |href: String, field: String, Usv(value): Usv| {
                let mut url = Url::parse(&href).ok()?;
                set(&mut url, &field, &value);
                Some(parts(&url))
            },
        )?,
    )?;
    natives.set(
        "formParse",
        Function::new(ctx.clone(), |Usv(text): Usv| {
            let text = text.strip_prefix('?').unwrap_or(&text);
            form_urlencoded::parse(text.as_bytes())
                .flat_map(|(k, v)| [k.into_owned(), v.into_owned()])
                .collect::<Vec<String>>()
        })?,
    )?;
    natives.set(
        "formSerialize",
        Function::new(ctx.clone(), |flat: Vec<Usv>| {
            let mut serializer = form_urlencoded::Serializer::new(String::new());
            for pair in flat.chunks(2) {
                if let [Usv(k), Usv(v)] = pair {
                    serializer.append_pair(k, v);
                }
            }
            serializer.finish()
        })?,
    )?;
    natives.set(
        "patternParse",
        Function::new(
            ctx.clone(),
            |input: String, base: Option<Usv>, ignore_case: bool| {
                flagged(
                    pattern(&input, base.as_ref().map(|b| b.0.as_str()), ignore_case).map(
                        |pattern| {
                            serde_json::json!([
                                pattern.protocol(),
                                pattern.username(),
                                pattern.password(),
                                pattern.hostname(),
                                pattern.port(),
                                pattern.pathname(),
                                pattern.search(),
                                pattern.hash(),
                                pattern.has_regexp_groups(),
                            ])
                            .to_string()
                        },
                    ),
                )
            },
        )?,
    )?;
    natives.set(
        "patternExec",
        Function::new(
            ctx.clone(),
            |input: String,
             base: Option<Usv>,
             ignore_case: bool,
             target: String,
             target_base: Option<Usv>| {
                flagged(exec(
                    &input,
                    base.as_ref().map(|b| b.0.as_str()),
                    ignore_case,
                    &target,
                    target_base.as_ref().map(|b| b.0.as_str()),
                ))
            },
        )?,
    )?;
    Ok(())
}

/// A result as `url.js` reads it: the text, or `!` and the error's text.
fn flagged(result: Result<String, String>) -> String {
    result.unwrap_or_else(|e| format!("!{e}"))
}

/// Matches `target` against the pattern; the JSON of the match, or `null`.
fn exec(
    input: &str,
    base: Option<&str>,
    ignore_case: bool,
    target: &str,
    target_base: Option<&str>,
) -> Result<String, String> {
    let pattern = pattern(input, base, ignore_case)?;
    let target: urlpattern::quirks::StringOrInit =
        serde_json::from_str(target).map_err(|e| e.to_string())?;
    let Some((matched, (first, second))) =
        urlpattern::quirks::process_match_input(target, target_base).map_err(|e| e.to_string())?
    else {
        return Ok("null".into());
    };
    let Some(result) = pattern.exec(matched).map_err(|e| e.to_string())? else {
        return Ok("null".into());
    };
    let component = |c: &urlpattern::UrlPatternComponentResult| serde_json::json!({ "input": c.input, "groups": c.groups });
    let mut inputs = vec![serde_json::to_value(first).unwrap_or_default()];
    if let Some(second) = second {
        inputs.push(second.into());
    }
    Ok(serde_json::json!({
        "inputs": inputs,
        "protocol": component(&result.protocol),
        "username": component(&result.username),
        "password": component(&result.password),
        "hostname": component(&result.hostname),
        "port": component(&result.port),
        "pathname": component(&result.pathname),
        "search": component(&result.search),
        "hash": component(&result.hash),
    })
    .to_string())
}

/// Builds a pattern from the JSON of a string or an init dictionary.
fn pattern(
    input: &str,
    base: Option<&str>,
    ignore_case: bool,
) -> Result<urlpattern::UrlPattern, String> {
    let input: urlpattern::quirks::StringOrInit =
        serde_json::from_str(input).map_err(|e| e.to_string())?;
    let init = urlpattern::quirks::process_construct_pattern_input(input, base)
        .map_err(|e| e.to_string())?;
    urlpattern::UrlPattern::parse(init, urlpattern::UrlPatternOptions { ignore_case })
        .map_err(|e| e.to_string())
}
