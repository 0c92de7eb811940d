//! URL parsing and its setters on ada (`ada-url`, the parser workerd links), form encoding,
//! and URLPattern (`urlpattern`), as functions `url.js` calls.
//!
//! A form body's pairs are decoded by `url`'s `form_urlencoded`: ada decodes `%FF` into a byte
//! that is not UTF-8 and the `ada-url` crate hands it out as a `&str` unchecked, where workerd
//! turns the same bytes into a JavaScript string with U+FFFD for each bad sequence, which is
//! what `form_urlencoded`'s lossy decoding gives. Serializing a list of pairs is ada's.

use crate::isolate::text::Usv;
use ada_url::{Url, UrlSearchParams};
use rquickjs::{Ctx, Function, Object};
use url::form_urlencoded;

/// The fields of a parsed URL, in the order `url.js` reads them.
fn parts(url: &Url) -> Vec<String> {
    vec![
        url.href().to_string(),
        url.origin(),
        url.protocol().to_string(),
        url.username().to_string(),
        url.password().to_string(),
        url.host().to_string(),
        url.hostname().to_string(),
        url.port().to_string(),
        url.pathname().to_string(),
        url.search().to_string(),
        url.hash().to_string(),
    ]
}

fn parse(href: &str, base: Option<&str>) -> Option<Url> {
    Url::parse(href, base).ok()
}

/// Applies one setter the way the URL standard does; an invalid value leaves the URL as it
/// was (`false` for `href`, whose setter throws instead).
fn set(url: &mut Url, field: &str, value: &str) -> bool {
    // A refused value leaves the URL as it was, so each setter's own refusal is not needed.
    let _refused = match field {
        "href" => return url.set_href(value).is_ok(),
        "protocol" => url.set_protocol(value),
        "username" => url.set_username(Some(value)),
        "password" => url.set_password(Some(value)),
        "host" => url.set_host(Some(value)),
        "hostname" => url.set_hostname(Some(value)),
        "port" => url.set_port(Some(value)),
        "pathname" => url.set_pathname(Some(value)),
        "search" => {
            url.set_search(Some(value));
            Ok(())
        }
        "hash" => {
            url.set_hash(Some(value));
            Ok(())
        }
        _ => Ok(()),
    };
    true
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
                let mut url = parse(&href, None)?;
                set(&mut url, &field, &value).then(|| parts(&url))
            },
        )?,
    )?;
    natives.set(
        "formParse",
        Function::new(ctx.clone(), |Usv(text): Usv| {
            // One leading `?` is not part of the body (as ada's own parser drops it).
            let text = text.strip_prefix('?').unwrap_or(&text);
            form_urlencoded::parse(text.as_bytes())
                .flat_map(|(k, v)| [k.into_owned(), v.into_owned()])
                .collect::<Vec<String>>()
        })?,
    )?;
    natives.set(
        "formSerialize",
        Function::new(ctx.clone(), |flat: Vec<Usv>| {
            let mut params = UrlSearchParams::parse("").expect("an empty body parses");
            for pair in flat.chunks(2) {
                if let [Usv(k), Usv(v)] = pair {
                    params.append(k, v);
                }
            }
            params.to_string()
        })?,
    )?;
    natives.set(
        "patternParse",
        Function::new(
            ctx.clone(),
            |input: String, base: Option<Usv>, ignore_case: bool| {
                flagged(pattern(
                    &input,
                    base.as_ref().map(|b| b.0.as_str()),
                    ignore_case,
                ))
            },
        )?,
    )?;
    natives.set(
        "patternInput",
        Function::new(ctx.clone(), |input: String, base: Option<Usv>| {
            flagged(match_input(&input, base.as_ref().map(|b| b.0.as_str())))
        })?,
    )?;
    Ok(())
}

/// A result as `url.js` reads it: the text, or `!` and the error's text.
fn flagged(result: Result<String, String>) -> String {
    result.unwrap_or_else(|e| format!("!{e}"))
}

/// Compiles a pattern from the JSON of a string or an init dictionary: the JSON of
/// `{hasRegExpGroups, components: [[pattern string, regexp source, group names], …]}`, the
/// components in `url.js`'s order. The regexps are compiled and run by `url.js` with the
/// engine's own `RegExp` (flags `v`, and `i` to ignore case), as the standard asks.
fn pattern(input: &str, base: Option<&str>, ignore_case: bool) -> Result<String, String> {
    use urlpattern::quirks;
    let input: quirks::StringOrInit = serde_json::from_str(input).map_err(|e| e.to_string())?;
    let init = quirks::process_construct_pattern_input(input, base).map_err(|e| e.to_string())?;
    let options = urlpattern::UrlPatternOptions {
        regex_syntax: urlpattern::RegexSyntax::EcmaScript,
        ignore_case,
    };
    let pattern =
        quirks::parse_pattern::<quirks::EcmaRegexp>(init, options).map_err(|e| e.to_string())?;
    let component = |c: &quirks::UrlPatternComponent| {
        serde_json::json!([c.pattern_string, c.regexp_string, c.group_name_list])
    };
    Ok(serde_json::json!({
        "hasRegExpGroups": pattern.has_regexp_groups,
        "components": [
            component(&pattern.protocol),
            component(&pattern.username),
            component(&pattern.password),
            component(&pattern.hostname),
            component(&pattern.port),
            component(&pattern.pathname),
            component(&pattern.search),
            component(&pattern.hash),
        ],
    })
    .to_string())
}

/// The components a match input is matched on, from the JSON of a string (a URL, parsed by
/// ada against `base`) or an init dictionary (processed as the URLPattern standard says):
/// the JSON of the eight strings in `url.js`'s order, or `null` where the input is no URL.
fn match_input(input: &str, base: Option<&str>) -> Result<String, String> {
    use urlpattern::quirks;
    let input: quirks::StringOrInit = serde_json::from_str(input).map_err(|e| e.to_string())?;
    let components = match input {
        quirks::StringOrInit::String(href) => parse(&href, base).map(|url| {
            let protocol = url.protocol();
            vec![
                protocol.strip_suffix(':').unwrap_or(protocol).to_string(),
                url.username().to_string(),
                url.password().to_string(),
                url.hostname().to_string(),
                url.port().to_string(),
                url.pathname().to_string(),
                unmarked(url.search(), '?'),
                unmarked(url.hash(), '#'),
            ]
        }),
        init => quirks::process_match_input(init, base)
            .map_err(|e| e.to_string())?
            .and_then(|(input, _)| quirks::parse_match_input(input))
            .map(|i| {
                vec![
                    i.protocol, i.username, i.password, i.hostname, i.port, i.pathname, i.search,
                    i.hash,
                ]
            }),
    };
    Ok(serde_json::to_string(&components).expect("strings serialize"))
}

/// `text` without its leading `mark` (a URL's `?` or `#`).
fn unmarked(text: &str, mark: char) -> String {
    text.strip_prefix(mark).unwrap_or(text).to_string()
}
