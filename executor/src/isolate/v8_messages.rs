//! QuickJS's error wording, translated to the wording V8 uses, wherever a message leaves the
//! sandbox (a run's error message, the text of a logged `Error`, a start failure).
//!
//! Hosts parse these texts, and the reference runs on V8, so the table below is contract. A
//! message the table does not know passes through unchanged.

use super::call_site;
use crate::js_words;

/// Where a runtime error was raised: the source text of the file and the 1-based line and
/// column QuickJS reported. Lets `not a function` name its callee as V8 does.
pub(super) struct SourcePosition<'a> {
    pub source: &'a str,
    pub line: usize,
    pub column: usize,
}

/// Whether `message` names something V8 renders from the source (a callee, an iterated
/// expression, a destructured property), so its translation wants the throw position.
pub(super) fn needs_position(message: &str) -> bool {
    message == "not a function"
        || message == "not a constructor"
        || named_not_constructor(message).is_some()
        || message.ends_with(NOT_ITERABLE_DEFAULT)
        || message.ends_with(NOT_ASYNC_ITERABLE)
        || message.starts_with("Cannot destructure '")
}

/// The function a `NAME is not a constructor` names: the engine's text for a function of its
/// own bytecode that is no constructor (an arrow, a method, a built-in written in JavaScript
/// such as `Iterator.zip`), named by the function's own name where V8 names the call site.
fn named_not_constructor(message: &str) -> Option<&str> {
    message
        .strip_suffix(" is not a constructor")
        .filter(|name| is_identifier(name))
}

/// The tail of V8's not-iterable text where it cannot render the expression (the engine
/// patch `0009-v8-not-iterable` makes it; the head is V8's default call site: `undefined`,
/// `number 5`, `object`).
const NOT_ITERABLE_DEFAULT: &str =
    " is not iterable (cannot read property Symbol(Symbol.iterator))";

/// The tail of V8's text for a value `for await` cannot iterate (the engine patch
/// `0021-v8-builtin-argument-texts` makes it with V8's default call site: `number 42 is not
/// async iterable`).
const NOT_ASYNC_ITERABLE: &str = " is not async iterable";

/// Translates one runtime error message.
///
/// The engine (`vendor/patches`) words its errors as V8 does wherever it knows the facts;
/// what is left here is what needs the program's source (V8's call-site rendering) and the
/// few texts no patch changes yet.
pub(super) fn translate_message(message: &str, position: Option<SourcePosition<'_>>) -> String {
    if message.ends_with(NOT_ASYNC_ITERABLE) {
        return position
            .and_then(|p| iterated_at(p.source, p.line, p.column))
            .and_then(|site| match site {
                Site::Expression(text) => Some(format!("{text} is not async iterable")),
                // V8 keeps the call's `(...)` here, unlike in the synchronous text.
                Site::Call(callee) => Some(format!(
                    "{callee}(...) is not a function or its return value is not async iterable"
                )),
                Site::SpreadArgument(_) => None,
            })
            .unwrap_or_else(|| message.to_string());
    }
    if message.ends_with(NOT_ITERABLE_DEFAULT) {
        return position
            .and_then(|p| iterated_at(p.source, p.line, p.column))
            .map(|site| match site {
                Site::Expression(text) => format!("{text} is not iterable"),
                Site::Call(callee) => {
                    format!("{callee} is not a function or its return value is not iterable")
                }
                // V8 names the spread's operand and value when it is undefined or null.
                Site::SpreadArgument(text) if message.starts_with("undefined ") => {
                    format!("{text} is not iterable (cannot read property undefined)")
                }
                Site::SpreadArgument(text) if message.starts_with("object null ") => {
                    format!("{text} is not iterable (cannot read property null)")
                }
                Site::SpreadArgument(_) => {
                    "Spread syntax requires ...iterable[Symbol.iterator] to be a function".into()
                }
            })
            .unwrap_or_else(|| message.to_string());
    }
    if message.starts_with("Cannot destructure '") {
        // Read from the tail: a text translated once already (`'object null' as it is
        // null.`) translates the same again.
        let nullish = if message.ends_with(" as it is null.") {
            "null"
        } else {
            "undefined"
        };
        return position
            .and_then(|p| destructured_at(p.source, p.line, p.column, nullish))
            .map(|(property, source)| match source {
                // A pattern inside a pattern, or one heading a for-of: V8 reads the property
                // it stands for (none for an empty pattern).
                None if property.is_empty() => format!("Cannot read properties of {nullish}"),
                None => format!("Cannot read properties of {nullish} (reading '{property}')"),
                // An empty pattern (`function f({}) {}`) names only the value.
                Some(source) if property.is_empty() => {
                    format!("Cannot destructure '{source}' as it is {nullish}.")
                }
                Some(source) => format!(
                    "Cannot destructure property '{property}' of '{source}' as it is {nullish}."
                ),
            })
            .unwrap_or_else(|| message.to_string());
    }
    if let Some(name) = named_not_constructor(message) {
        // `new Iterator.zip()`: V8 names the member as written, the engine the function; the
        // call site is taken only when it ends with that name.
        return position
            .and_then(|p| callee_at(p.source, p.line, p.column))
            .filter(|(callee, _)| {
                callee == name
                    || callee
                        .strip_suffix(name)
                        .is_some_and(|head| head.ends_with('.'))
            })
            .map(|(callee, _)| format!("{callee} is not a constructor"))
            .unwrap_or_else(|| message.to_string());
    }
    if message == "not a function" || message == "not a constructor" {
        if let Some((callee, constructed)) =
            position.and_then(|p| callee_at(p.source, p.line, p.column))
        {
            // QuickJS says `not a function` for `new` of a non-callable as well.
            let noun = if constructed || message == "not a constructor" {
                "a constructor"
            } else {
                "a function"
            };
            return format!("{callee} is not {noun}");
        }
        return message.to_string();
    }
    if message == "this is not initialized" {
        return "Must call super constructor in derived class before accessing 'this' or returning from derived constructor".into();
    }
    if let Some(name) = message
        .strip_suffix(" is not initialized")
        .filter(|name| is_identifier(name))
    {
        return format!("Cannot access '{name}' before initialization");
    }
    if let Some(token) = message
        .strip_prefix("unexpected token: '")
        .and_then(|m| m.strip_suffix('\''))
    {
        return format!("Unexpected token '{token}', \"{token}\" is not valid JSON");
    }
    match message {
        "invalid array length" => "Invalid array length".into(),
        // QuickJS's strings are ropes: doubling one reaches the length limit, not the memory
        // limit, and QuickJS reports that limit in two ways where V8 has one text.
        "invalid string length" | "string too long" => "Invalid string length".into(),
        "BigInt is too large" | "BigInt is too large to allocate" => {
            "Maximum BigInt size exceeded".into()
        }
        "invalid array buffer length" => "Invalid array buffer length".into(),
        "division by zero" => "Division by zero".into(),
        "stack overflow" => "Maximum call stack size exceeded".into(),
        "toPrimitive" => "Cannot convert object to primitive value".into(),
        "BigInt division by zero" => "Division by zero".into(),
        "empty array" => "Reduce of empty array with no initial value".into(),
        "Date value is NaN" => "Invalid time value".into(),
        "bad normalization form" => {
            "The normalization form should be one of NFC, NFD, NFKC, NFKD.".into()
        }
        _ => message.to_string(),
    }
}

/// Translates the text of a rendered error (`String(err)`, as `Name: message`).
pub(super) fn translate_rendered(text: &str) -> String {
    match text.split_once(": ") {
        // V8 has one text for every malformed URI sequence.
        Some(("URIError", message)) if QUICKJS_URI_MESSAGES.contains(&message) => {
            "URIError: URI malformed".into()
        }
        Some((name, message)) if name.ends_with("Error") => {
            format!("{name}: {}", translate_message(message, None))
        }
        _ => text.to_string(),
    }
}

/// QuickJS's texts for a malformed sequence in `decodeURI`/`encodeURI` and their kin.
const QUICKJS_URI_MESSAGES: &[&str] = &[
    "expecting %",
    "expecting hex digit",
    "malformed UTF-8",
    "invalid character",
    "expecting surrogate pair",
];

fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// What V8 names in a not-iterable text: the expression as written, or the callee when the
/// expression is a call (`m.get is not a function or its return value is not iterable`).
enum Site {
    Expression(String),
    Call(String),
    /// A spread among a call's arguments (`f(...x)`).
    SpreadArgument(String),
}

/// The iterated expression nearest `line`:`column`: a `for (… of EXPR)` head, a spread
/// `...EXPR`, or the right side of an array pattern `[a, b] = EXPR`.
fn iterated_at(source: &str, line: usize, column: usize) -> Option<Site> {
    let text = source.lines().nth(line.checked_sub(1)?)?;
    let column = column.saturating_sub(1).min(text.len());
    // (where the expression starts, its text, how it is iterated)
    let mut candidates: Vec<(usize, &str, Iterated)> = Vec::new();
    for (at, _) in text.match_indices(" of ") {
        let start = at + 4;
        let end = expression_end(text, start, b')');
        let head = text[..at].trim_end();
        // An array pattern inside an object pattern heading the loop (`for ({ a: [x] } of
        // list)`): V8 keeps its default text for the element's property.
        if column < at && for_head_pattern(head).is_some_and(|lhs| lhs.starts_with('{')) {
            return None;
        }
        // (a declaration's pattern: an assignment's, `for ([x] of ...)`, keeps the default)
        let declared = head.find('[').is_some_and(|open| {
            let before = head[..open].trim_end();
            declares(before)
        });
        let how = match head.ends_with(']') && text[start..end].trim_start().starts_with('[') {
            true if declared => Iterated::ForOfArrayPattern,
            true => Iterated::ArrayAssignment,
            false => Iterated::ForOf,
        };
        candidates.push((start, &text[start..end], how));
    }
    for (at, _) in text.match_indices("...") {
        let start = at + 3;
        let end = expression_end(text, start, 0);
        let how = if spread_in_call(text.as_bytes(), at) {
            Iterated::SpreadArgument
        } else {
            Iterated::Spread
        };
        candidates.push((start, &text[start..end], how));
    }
    for (at, _) in text.match_indices("] =") {
        if text[at + 3..].starts_with('=') {
            continue;
        }
        let start = at + 3;
        let end = expression_end(text, start, 0);
        candidates.push((start, &text[start..end], array_pattern(text, at)));
    }
    for (at, _) in text.match_indices("yield*") {
        let end = expression_end(text, at + 6, 0);
        candidates.push((at, &text[at..end], Iterated::YieldStar));
    }
    let (_, expression, how) = candidates
        .into_iter()
        .filter(|(_, e, _)| !e.trim().is_empty())
        .min_by_key(|(start, e, _)| {
            let end = start + e.len();
            if (*start..=end).contains(&column) {
                0
            } else {
                start.abs_diff(column).min(end.abs_diff(column))
            }
        })?;
    // V8 keeps its default text for `yield*` of a value that is not iterable, for an
    // assignment's array pattern or a parameter's, and for a pattern inside one (`[[x]] =
    // [null]`: the inner pattern's value has no expression).
    // `yield*` of a call or a member (`yield* m.list()`) names the delegation, not the
    // expression; of anything else V8 keeps its default text.
    if how == Iterated::YieldStar {
        let operand = expression.trim_start().trim_start_matches("yield*");
        let delegated = call_site::render(operand)
            .is_some_and(|r| r.contains('.') || r.contains('[') || r.ends_with("(...)"));
        return delegated.then(|| Site::Expression("yield* (intermediate value)".into()));
    }
    if matches!(
        how,
        Iterated::ArrayAssignment | Iterated::ArrayParameterDefault
    ) || (matches!(how, Iterated::ArrayPattern | Iterated::ArrayDefault)
        && expression.trim_start().starts_with('['))
    {
        return None;
    }
    // A nested pattern's default is printed when it is a name (`{ a: [x] = n }`: `n is not
    // iterable`, taken or not), and not when it is a literal (`= 5`, `= [4, 5]`).
    if how == Iterated::ArrayDefault && !is_identifier(expression.trim()) {
        return None;
    }
    // An element of a for-of over an array literal, destructured by an array pattern: V8
    // names the loop's hidden variable.
    if how == Iterated::ForOfArrayPattern {
        return Some(Site::Expression(".for".into()));
    }
    // An awaited value is one V8 does not print.
    if expression.trim_start().starts_with("await ") && how != Iterated::SpreadArgument {
        return Some(Site::Expression("(intermediate value)".into()));
    }
    let rendered = call_site::render(expression)?;
    // An optional chain: V8 keeps its default text for a for-of over one, and does not print
    // one it spreads.
    if rendered.contains("?.") {
        return match how {
            Iterated::ForOf => None,
            Iterated::Spread => Some(Site::Expression(INTERMEDIATE.into())),
            _ => Some(Site::Expression(rendered)),
        };
    }
    if how == Iterated::SpreadArgument {
        return Some(Site::SpreadArgument(rendered));
    }
    if call_site::is_call(expression) {
        // An array pattern over a call's result keeps V8's default text
        // (`const [a] = m.get(k)`: `undefined is not iterable (cannot read property …)`).
        if matches!(how, Iterated::ArrayPattern | Iterated::ArrayDefault) {
            return None;
        }
        let callee = rendered.strip_suffix("(...)")?;
        return Some(Site::Call(callee.to_string()));
    }
    Some(Site::Expression(rendered))
}

/// The left side of the for head that `head` (the text before its ` of `) ends with, its
/// declaration's keyword left out: `{ a }` for `for (const { a }`.
fn for_head_pattern(head: &str) -> Option<&str> {
    let open = head
        .rfind("for (")
        .map(|i| i + 5)
        .or(head.rfind("for(").map(|i| i + 4))?;
    let lhs = head[open..].trim_start();
    Some(
        ["const ", "let ", "var "]
            .iter()
            .find_map(|k| lhs.strip_prefix(k))
            .unwrap_or(lhs)
            .trim_start(),
    )
}

/// Whether the source before a pattern ends with a declaration's keyword (`const [a] = …`).
fn declares(before: &str) -> bool {
    ["const", "let", "var"].iter().any(|k| before.ends_with(k))
}

/// What the array pattern closing at `close` (its `]`) destructures: a declaration's
/// initializer, a default (the pattern stands in another pattern or a parameter list), or an
/// assignment's right side.
fn array_pattern(text: &str, close: usize) -> Iterated {
    let Some(open) = matching_open(text.as_bytes(), close) else {
        return Iterated::ArrayPattern;
    };
    let before = text[..open].trim_end();
    if declares(before) {
        Iterated::ArrayPattern
    } else if before.ends_with(':') || before.ends_with('[') {
        Iterated::ArrayDefault
    } else if (before.ends_with('(') || before.ends_with(',')) && in_parameter_list(text, open) {
        Iterated::ArrayParameterDefault
    } else {
        Iterated::ArrayAssignment
    }
}

/// How an expression is iterated: V8 words each differently.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Iterated {
    ForOf,
    /// A spread in an array literal (`[...x]`).
    Spread,
    /// A spread among a call's arguments (`f(...x)`).
    SpreadArgument,
    /// The right side of a declaration's array pattern (`const [a] = x`).
    ArrayPattern,
    /// The default of an array pattern inside a pattern (`{ a: [x] = d }`).
    ArrayDefault,
    /// The default of an array pattern that is a parameter (`([x] = d) =>`).
    ArrayParameterDefault,
    /// The array literal a for-of with an array pattern iterates (`for (const [a] of [x])`):
    /// the element failed, not the literal.
    ForOfArrayPattern,
    /// The right side of an assignment's array pattern (`[a] = x`), where V8 keeps its
    /// default text.
    ArrayAssignment,
    /// A delegating `yield*`, where V8 keeps its default text.
    YieldStar,
}

/// Whether the spread at `at` is among a call's arguments (its innermost open bracket is a
/// `(` right after a callee) rather than in an array literal.
fn spread_in_call(bytes: &[u8], at: usize) -> bool {
    let mut depth = 0usize;
    for i in (0..at).rev() {
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' if depth > 0 => depth -= 1,
            b'(' => {
                let before = bytes[..i].trim_ascii_end();
                return before
                    .last()
                    .is_some_and(|&b| is_chain_byte(b) || b == b')' || b == b']');
            }
            b'[' | b'{' => return false,
            _ => {}
        }
    }
    false
}

/// The first property of the object pattern nearest `line`:`column` and V8's rendering of
/// what it destructures (`const { b } = a` -> (`b`, `a`)); a parameter's pattern, which has
/// no source expression, renders as the value (`undefined`), a `for…of` head's as `.for`, a
/// catch parameter's as `.catch` (V8's names for the values it has no source for), a
/// parameter's pattern with a default as V8's rendering of that default's place (three
/// intermediate values, whatever the default); a pattern nested in another renders its own
/// default (`{ a: { b } = {} }` -> `{}`, whether or not the default was taken), and without
/// one is `None` (`{ a: { b } }`: V8 reads the property). An empty pattern's property is
/// empty.
fn destructured_at(
    source: &str,
    line: usize,
    column: usize,
    nullish: &str,
) -> Option<(String, Option<String>)> {
    let text = source.lines().nth(line.checked_sub(1)?)?;
    let column = column.saturating_sub(1).min(text.len());
    let bytes = text.as_bytes();
    // The pattern's opening brace: the nearest `{` at or before the column that a
    // declaration, a parameter list or an assignment opens.
    let mut best: Option<(usize, String, Option<String>)> = None;
    for (open, _) in text.match_indices('{') {
        let before = text[..open].trim_end();
        let declares = ["const", "let", "var", "(", ","]
            .iter()
            .any(|k| before.ends_with(k));
        let nested = before.ends_with(':') || before.ends_with('[');
        if !declares && !nested {
            continue;
        }
        let Some(close) = matching_close(bytes, open) else {
            continue;
        };
        let inner = text[open + 1..close].trim_start();
        // An assignment pattern heading a for-of (`for ({ a } of list)`): V8 reads the
        // element's first property (none for an empty pattern or a rest element).
        let for_of_target = before.strip_suffix('(').is_some_and(|b| {
            b.trim_end().strip_suffix("for").is_some_and(|w| {
                !w.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
            })
        }) && text[close + 1..].trim_start().starts_with("of ");
        if for_of_target {
            let first: String = inner
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            let distance = open.abs_diff(column);
            if best.as_ref().is_none_or(|(d, _, _)| distance < *d) {
                best = Some((distance, first, None));
            }
            continue;
        }
        let property: String = inner
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        if property.is_empty() && !inner.trim().is_empty() {
            continue;
        }
        let parameter =
            (before.ends_with('(') || before.ends_with(',')) && in_parameter_list(text, open);
        // A first property with a default (`{ a = 1 } = x`): V8 reads it as a property.
        let defaulted = inner[property.len()..]
            .trim_start()
            .strip_prefix('=')
            .is_some_and(|rest| !rest.starts_with(['=', '>']));
        let after = text[close + 1..].trim_start();
        let source = match after
            .strip_prefix('=')
            .filter(|a| !a.starts_with(['=', '>']))
        {
            Some(rest) if nested => {
                let start = text.len() - rest.len();
                let end = expression_end(text, start, 0);
                Some(call_site::render(&text[start..end]).unwrap_or_else(|| INTERMEDIATE.into()))
            }
            _ if nested || defaulted => None,
            Some(_) if parameter => Some(INTERMEDIATE.repeat(3)),
            Some(rest) => {
                let start = text.len() - rest.len();
                let end = expression_end(text, start, 0);
                let expression = text[start..end].trim();
                match call_site::render(expression) {
                    Some(rendered) => Some(rendered),
                    // V8 does not print an awaited value's expression.
                    None if expression.starts_with("await ") => {
                        Some("(intermediate value)".to_string())
                    }
                    None => continue,
                }
            }
            None if after.starts_with("of ") => Some(".for".to_string()),
            None if before.ends_with('(')
                && before[..before.len() - 1].trim_end().ends_with("catch") =>
            {
                Some(".catch".to_string())
            }
            // A parameter: no source expression, V8's default rendering of the value.
            None if nullish == "null" => Some("object null".to_string()),
            None => Some(nullish.to_string()),
        };
        let distance = open.abs_diff(column);
        if best.as_ref().is_none_or(|(d, _, _)| distance < *d) {
            best = Some((distance, property, source));
        }
    }
    best.map(|(_, property, source)| (property, source))
}

/// V8's rendering of a value it has no expression for.
const INTERMEDIATE: &str = "(intermediate value)";

/// Whether the bracket at `open` stands in a function's parameter list: the nearest
/// unclosed `(` before it closes on a `)` followed by `=>` or `{`.
fn in_parameter_list(text: &str, open: usize) -> bool {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    for i in (0..open).rev() {
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'[' | b'{' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            b'(' if depth > 0 => depth -= 1,
            b'(' => {
                return matching_close(bytes, i).is_some_and(|close| {
                    let after = text[close + 1..].trim_start();
                    after.starts_with("=>") || after.starts_with('{')
                });
            }
            _ => {}
        }
    }
    false
}

/// Where the expression starting at `start` ends: at a `,`, `;` or closing bracket at
/// depth 0 (or `close` when given), or the end of the line.
fn expression_end(text: &str, start: usize, close: u8) -> usize {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' | b'"' | b'`' => {
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return i,
            b')' | b']' | b'}' => depth -= 1,
            b',' | b';' if depth == 0 => return i,
            b if depth == 0 && close != 0 && b == close => return i,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// The index of the bracket closing the one at `open`.
fn matching_close(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The callee of the call QuickJS reported at `line`:`column`, as V8's CallPrinter renders
/// it (`a.b`, `a?.b`, `a[k]`, `f(...).g`, `(intermediate value).map`): V8 names it in
/// `... is not a function`. The second value says whether the call is a `new`.
fn callee_at(source: &str, line: usize, column: usize) -> Option<(String, bool)> {
    let line_start = source
        .split_inclusive('\n')
        .take(line.checked_sub(1)?)
        .map(str::len)
        .sum::<usize>();
    let text = source.lines().nth(line - 1)?;
    let start = line_start + column.checked_sub(1)?.min(text.len());
    let bytes = source.as_bytes();
    // A tagged template (`f()\n`tpl``) calls the expression before its backtick.
    let tagged = bytes[start..]
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .filter(|&i| bytes[start + i] == b'`')
        .map(|i| start + i);
    // Forward to the call's opening parenthesis.
    // QuickJS reports the callee's last name, or, when an argument emitted a position of its
    // own (an arrow), a place inside the arguments: then the call is the innermost open one.
    let open = match tagged {
        Some(backtick) => backtick,
        None => {
            let line_bytes = text.as_bytes();
            let column = start - line_start;
            match open_paren_after(line_bytes, column) {
                Some(open) => line_start + open,
                // `new FACTORY;`: a construction without arguments, at the position or, when
                // no call holds the position, the nearest one on the line.
                None => match constructed_without_arguments(text, column, true) {
                    Some(found) => return Some(found),
                    None => match enclosing_call(line_bytes, column) {
                        Some(open) => line_start + open,
                        None => return constructed_without_arguments(text, column, false),
                    },
                },
            }
        }
    };
    // `new class extends Iterator {}.map()`: V8 prints the class as a value it does not name.
    if let Some(member) = class_expression_member(&source[line_start..open]) {
        return Some((format!("(intermediate value){member}"), true));
    }
    let begin = chain_start(bytes, open)?;
    let callee_text = source[begin..open].trim();
    if callee_text.is_empty() {
        return None;
    }
    let callee = call_site::render(callee_text)?;
    // `new o.g()`: the keyword right before the callee.
    let constructed = source[..begin]
        .trim_end()
        .strip_suffix("new")
        .is_some_and(|before| !before.ends_with(|c: char| is_chain_byte(c as u8) && c.is_ascii()));
    // `new A().m()`: `new` takes the first argument list; V8 prints the new object as a
    // value it does not name, and the call is not a construction.
    if constructed && let Some(at) = callee.find("(...)") {
        return Some((format!("(intermediate value){}", &callee[at + 5..]), false));
    }
    Some((callee, constructed))
}

/// The callee of a `new` without an argument list (`new Function.prototype.apply;`) on a line
/// of source: the member chain after the `new` nearest before `column` (or the first one), when
/// nothing but the end of the expression follows it; with `holding`, only one whose text holds
/// `column`.
fn constructed_without_arguments(
    text: &str,
    column: usize,
    holding: bool,
) -> Option<(String, bool)> {
    let bytes = text.as_bytes();
    let starts: Vec<usize> = text
        .match_indices("new ")
        .map(|(at, _)| at)
        .filter(|&at| at == 0 || !is_chain_byte(bytes[at - 1]))
        .collect();
    let at = starts
        .iter()
        .rev()
        .find(|&&at| at <= column)
        .or_else(|| starts.first())
        .copied()?;
    let begin = at + 4;
    let end = begin
        + bytes[begin..]
            .iter()
            .position(|&b| !is_chain_byte(b))
            .unwrap_or(bytes.len() - begin);
    let after = text[end..].trim_start();
    let ends = after.is_empty() || after.starts_with([';', ')', '}', ',']);
    let chain = &text[begin..end];
    if chain.is_empty() || !ends || (holding && !(at..=end).contains(&column)) {
        return None;
    }
    Some((call_site::render(chain)?, true))
}

/// The member after a class expression that `new` takes (`new class extends I {}.map`): the
/// text before a call's `(` when it is `new class ... {...}` and a member chain.
fn class_expression_member(head: &str) -> Option<&str> {
    let at = head.rfind("new class")?;
    let body = at + head[at..].find('{')?;
    let bytes = head.as_bytes();
    let mut depth = 0;
    let mut close = None;
    for (i, &b) in bytes.iter().enumerate().skip(body) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let member = head[close? + 1..].trim_end();
    (member.starts_with('.') && member.bytes().all(is_chain_byte) && member.len() > 1)
        .then_some(member)
}

/// Where the member chain ending at `end` begins, walking back over names, dots, `?.`,
/// brackets and the argument lists of calls; a parenthesized group that is not a call's
/// arguments is the chain's first part (V8's `(intermediate value)`).
fn chain_start(bytes: &[u8], end: usize) -> Option<usize> {
    let mut i = end;
    // Whitespace between the chain and the call (a tagged template on the next line).
    while i > 0 && bytes[i - 1].is_ascii_whitespace() {
        i -= 1;
    }
    loop {
        if i == 0 {
            return Some(0);
        }
        let b = bytes[i - 1];
        // An object literal opens the chain (`const o = { a: 1 }` then a line that starts
        // with `(`, which continues the expression).
        if b == b'}' {
            let open = matching_open(bytes, i - 1)?;
            let before = source_before_trimmed(bytes, open);
            return (before
                .last()
                .is_some_and(|b| matches!(b, b'=' | b'(' | b',' | b':' | b'[')))
            .then_some(open);
        }
        if b == b')' || b == b']' {
            let open = matching_open(bytes, i - 1)?;
            let mut before = open;
            while before > 0 && bytes[before - 1] == b' ' {
                before -= 1;
            }
            let continues = before > 0
                && (is_chain_byte(bytes[before - 1]) || matches!(bytes[before - 1], b')' | b']'))
                && !ends_with_keyword(&bytes[..before]);
            if !continues {
                // A group, `(await f())` in `(await f()).map`, or an array literal.
                return Some(open);
            }
            i = before;
        } else if b == b'\'' || b == b'"' {
            // A string literal opens the chain (`'abc'.foo`).
            let open = bytes[..i - 1].iter().rposition(|&q| q == b)?;
            return Some(open);
        } else if is_chain_byte(b) || b == b'?' {
            i -= 1;
        } else {
            return Some(i);
        }
    }
}

/// `bytes[..end]` without its trailing whitespace.
fn source_before_trimmed(bytes: &[u8], end: usize) -> &[u8] {
    bytes[..end].trim_ascii_end()
}

/// Whether `bytes` ends with a keyword after which a parenthesis opens a group, not a call's
/// arguments (`return (await f()).map`).
fn ends_with_keyword(bytes: &[u8]) -> bool {
    let start = bytes
        .iter()
        .rposition(|&b| !call_site::is_name_byte(b))
        .map_or(0, |i| i + 1);
    let word = &bytes[start..];
    [
        "return",
        "await",
        "typeof",
        "case",
        "in",
        "of",
        "yield",
        "void",
        "delete",
        "throw",
        "else",
        "do",
        "new",
        "instanceof",
    ]
    .iter()
    .any(|k| k.as_bytes() == word)
}

/// The index of the bracket opening the one that closes at `close`.
fn matching_open(bytes: &[u8], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for i in (0..=close).rev() {
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The call's opening parenthesis when `start` is on its callee's member chain.
fn open_paren_after(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth: i32 = 0;
    for (i, &b) in bytes.iter().enumerate().skip(start) {
        match b {
            b'[' => depth += 1,
            b']' => depth -= 1,
            b'(' if depth <= 0 => return Some(i),
            b'(' => {}
            _ if depth <= 0 && !(is_chain_byte(b) || b == b'?' || b == b' ') => return None,
            _ => {}
        }
    }
    None
}

/// The opening parenthesis of the innermost call whose arguments hold `start`.
fn enclosing_call(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0;
    for i in (0..start.min(bytes.len())).rev() {
        match bytes[i] {
            b')' => depth += 1,
            b'(' if depth > 0 => depth -= 1,
            // A grouping parenthesis (an arrow's parameters) is passed on the way out; a
            // call's result called again (`f()()`) opens its arguments after a `)`.
            b'(' if i > 0
                && (is_chain_byte(bytes[i - 1]) || matches!(bytes[i - 1], b']' | b')')) =>
            {
                return Some(i);
            }
            _ => {}
        }
    }
    None
}

fn is_chain_byte(b: u8) -> bool {
    // `#`: a private name (`o.#f`).
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.' || b == b'#'
}

/// V8's text for an export of a name the module does not declare (QuickJS reports it
/// without a position, after the parse).
pub(super) fn undefined_export(message: &str) -> Option<String> {
    let name = message
        .strip_prefix("exported variable '")?
        .strip_suffix("' does not exist")?;
    Some(format!("Export '{name}' is not defined in module"))
}

/// The byte offset where `line` (1-based) of `source` starts, the lines ended as the engine's
/// tokenizer and V8 end them: LF, CR (CR LF once), LS and PS.
fn line_start(source: &str, line: usize) -> usize {
    let mut remaining = line.saturating_sub(1);
    let mut chars = source.char_indices().peekable();
    while remaining > 0 {
        let Some((_, c)) = chars.next() else {
            return source.len();
        };
        match c {
            '\r' if chars.peek().is_some_and(|&(_, next)| next == '\n') => {}
            '\n' | '\r' | '\u{2028}' | '\u{2029}' => remaining -= 1,
            _ => {}
        }
    }
    chars.peek().map_or(source.len(), |&(i, _)| i)
}

/// A V8-worded syntax error for QuickJS's `message` at `line`:`column` of `source`.
pub(super) fn translate_syntax_error(
    message: &str,
    source: &str,
    line: usize,
    column: usize,
) -> String {
    if is_v8_syntax_text(message) {
        return message.to_string();
    }
    if message == "unexpected end of string" {
        return "Invalid or unexpected token".into();
    }
    if let Some(text) = undefined_export(message) {
        return text;
    }
    // QuickJS's words for what V8 words by the construct, not by the token.
    if message == "invalid keyword: with" {
        return "Strict mode code may not include a with statement".into();
    }
    let offset = line_start(source, line) + column.saturating_sub(1);
    let rest = source.get(offset..).unwrap_or("");
    let rest = rest.trim_start();
    // A regular expression literal's flags: the engine words it as the constructor does.
    if message.starts_with("Invalid flags supplied to RegExp constructor") && rest.starts_with('/')
    {
        return "Invalid regular expression flags".into();
    }
    let Some(first) = rest.chars().next() else {
        return "Unexpected end of input".into();
    };
    // A private name where none belongs: V8 names it as an identifier.
    if let Some(name) = rest.strip_prefix('#') {
        let word: String = name
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        if !word.is_empty() {
            return format!("Unexpected identifier '#{word}'");
        }
    }
    // An identifier written with escapes is named by what they spell; a `\u` that spells
    // nothing is a bad escape; any other backslash outside a string is no token at all.
    if first == '\\' {
        return match identifier_at(rest) {
            Some(word) if !word.is_empty() => format!("Unexpected identifier '{word}'"),
            _ if rest.starts_with("\\u") => "Invalid Unicode escape sequence".into(),
            _ => "Invalid or unexpected token".into(),
        };
    }
    // `(a?: T) =>` (TypeScript's optional parameter): V8 reads `a ? ...` as a conditional
    // and stops at the `:`.
    if let Some(after) = rest.strip_prefix('?')
        && after.trim_start().starts_with(':')
    {
        return "Unexpected token ':'".into();
    }
    // An argument list (`f(a b`, `async (x: T) =>`, which V8 reads as a call of `async`)
    // where the token after an argument is neither `,` nor `)`.
    if !rest.starts_with([',', ')']) && in_call_arguments(source, source.len() - rest.len()) {
        return "missing ) after argument list".into();
    }
    if first.is_alphabetic() || first == '_' || first == '$' {
        let word = identifier_at(rest).unwrap_or_default();
        return match word.as_str() {
            w if js_words::MODULE_RESERVED.contains(&w) => "Unexpected reserved word".into(),
            w if js_words::STRICT_RESERVED.contains(&w) => {
                "Unexpected strict mode reserved word".into()
            }
            w if js_words::KEYWORDS.contains(&w) => format!("Unexpected token '{w}'"),
            w => format!("Unexpected identifier '{w}'"),
        };
    }
    if first.is_ascii_digit() {
        return "Unexpected number".into();
    }
    if first == '"' || first == '\'' {
        return "Unexpected string".into();
    }
    if first == '`' {
        return "Unexpected template string".into();
    }
    // A character that starts no token (a format character, a symbol outside ASCII).
    if !first.is_ascii() {
        return "Invalid or unexpected token".into();
    }
    let punct = PUNCTUATORS
        .iter()
        .find(|p| rest.starts_with(**p))
        .map(|p| p.to_string())
        .unwrap_or_else(|| first.to_string());
    format!("Unexpected token '{punct}'")
}

/// The identifier `text` opens with, its escapes (`\u0061`, `\u{61}`) read as what they
/// spell; `None` when an escape spells no character of a name.
fn identifier_at(text: &str) -> Option<String> {
    let mut word = String::new();
    let mut rest = text;
    loop {
        if let Some(after) = rest.strip_prefix("\\u") {
            let (digits, tail) = match after.strip_prefix('{') {
                Some(braced) => {
                    let close = braced.find('}')?;
                    (&braced[..close], &braced[close + 1..])
                }
                None => (after.get(..4)?, &after[4..]),
            };
            if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            let c = char::from_u32(u32::from_str_radix(digits, 16).ok()?)?;
            if !(c.is_alphanumeric() || c == '_' || c == '$') {
                return None;
            }
            word.push(c);
            rest = tail;
            continue;
        }
        match rest.chars().next() {
            Some(c) if c.is_alphanumeric() || c == '_' || c == '$' => {
                word.push(c);
                rest = &rest[c.len_utf8()..];
            }
            _ => return Some(word),
        }
    }
}

/// Whether `at` (a byte offset of `source`, at a token that follows an expression) is inside
/// a call's argument list: the innermost open bracket before it is a `(` right after a callee
/// (a name that is not a keyword nor a function's name, or a call's `)`), and the list does not
/// close into a method's body.
fn in_call_arguments(source: &str, at: usize) -> bool {
    let bytes = source.as_bytes();
    // The token before `at` must end an argument.
    let before = source[..at].trim_end();
    if !before.ends_with(|c: char| {
        c.is_alphanumeric() || matches!(c, '_' | '$' | ')' | ']' | '"' | '\'' | '`')
    }) {
        return false;
    }
    if ends_with_keyword(before.as_bytes()) {
        return false;
    }
    let mut depth = 0usize;
    for i in (0..at.min(bytes.len())).rev() {
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' if depth > 0 => depth -= 1,
            b'(' => {
                let head = source[..i].trim_end();
                let word_start = head
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                    .map_or(0, |j| j + 1);
                let word = &head[word_start..];
                if word.is_empty() {
                    return false;
                }
                if word != "async" && is_v8_keyword(word) {
                    return false;
                }
                // `for await (`: a loop's head, not a call of `await`.
                if word == "await"
                    && head[..word_start]
                        .trim_end()
                        .strip_suffix("for")
                        .is_some_and(|before| {
                            !before.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
                        })
                {
                    return false;
                }
                let ahead = head[..word_start].trim_end();
                if ahead.ends_with("function") || ahead.ends_with('*') {
                    return false;
                }
                // A method's parameters: `name(a: T) {`.
                if let Some(close) = matching_close(bytes, i)
                    && source[close + 1..].trim_start().starts_with('{')
                {
                    return false;
                }
                return true;
            }
            b'[' | b'{' => return false,
            _ => {}
        }
    }
    false
}

/// Whether the engine already worded a syntax error as V8 does (patches `0007-v8-syntax-texts`,
/// `0015-v8-unterminated-tokens`, `0016-v8-missing-destructuring-initializer`,
/// `0019-v8-private-flags-labels-aggregate`, `0020-v8-primitive-writes`, and QuickJS's
/// own duplicate-parameter text): those name the identifier, the statement or the literal,
/// which the token at the position would not.
fn is_v8_syntax_text(message: &str) -> bool {
    (message.starts_with("Identifier '") && message.ends_with("' has already been declared"))
        || message.starts_with("Missing initializer in ")
        || message.starts_with("Illegal ")
        || message.starts_with("Invalid regular expression: ")
        || message.starts_with("Undefined label '")
        || message == "Delete of an unqualified identifier in strict mode."
        || message == "Unexpected end of input"
        || message == "Invalid or unexpected token"
        || message == "Duplicate parameter name not allowed in this context"
        || super::v8_syntax_texts::worded_by_rule(message)
}

/// Whether `word` is a keyword V8 reports as `Unexpected token '<word>'`.
pub(super) fn is_v8_keyword(word: &str) -> bool {
    js_words::KEYWORDS.contains(&word)
}

/// Longest first.
const PUNCTUATORS: &[&str] = &[
    ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=",
    "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "**", "<<", ">>",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn at(source: &str, line: usize, column: usize) -> Option<SourcePosition<'_>> {
        Some(SourcePosition {
            source,
            line,
            column,
        })
    }

    #[test]
    fn a_construction_without_arguments_names_its_callee() {
        // Measured on reference@0.5.6: `new FACTORY;` alone on a line, and inside a call's
        // arrow on one line (the call around it is not the callee).
        let source = "x;\n  new Function.prototype.apply;\n";
        for column in [3, 7, 30] {
            assert_eq!(
                translate_message("not a constructor", at(source, 2, column)),
                "Function.prototype.apply is not a constructor"
            );
        }
        let source = "t(() => { new FACTORY; });";
        assert_eq!(
            translate_message("not a constructor", at(source, 1, 11)),
            "FACTORY is not a constructor"
        );
    }

    #[test]
    fn a_class_expressions_member_is_an_intermediate_value() {
        // Measured on reference@0.5.6: `new class extends Iterator {}.map(() => 0)`.
        let source = "  new class extends Iterator {}.map(() => 0);";
        assert_eq!(
            translate_message("not a function", at(source, 1, 35)),
            "(intermediate value).map is not a constructor"
        );
    }

    #[test]
    fn a_named_function_that_is_no_constructor_is_named_by_its_call_site() {
        // Measured on reference@0.5.6: `new Iterator.zip([])`; the engine names the function.
        let source = "  new Iterator.zip([]);";
        assert_eq!(
            translate_message("zip is not a constructor", at(source, 1, 19)),
            "Iterator.zip is not a constructor"
        );
        // A call site that does not end with the function's name keeps the engine's text.
        let source = "  new f.other([]);";
        assert_eq!(
            translate_message("zip is not a constructor", at(source, 1, 14)),
            "zip is not a constructor"
        );
    }

    #[test]
    fn an_update_of_no_reference_names_prefix_or_postfix() {
        // Measured on reference@0.5.6: `1++` and `++1` starting the program's second line.
        // The engine words both (patch 0210); the executor passes its texts through.
        for (source, column, text) in [
            (
                "x;\n1++;",
                1,
                "Invalid left-hand side expression in postfix operation",
            ),
            (
                "x;\n++1;",
                3,
                "Invalid left-hand side expression in prefix operation",
            ),
        ] {
            assert_eq!(translate_syntax_error(text, source, 2, column), text);
        }
    }

    #[test]
    fn a_literals_flags_are_worded_as_v8_words_them() {
        // Measured on reference@0.5.6: `/a/gg;` starting the program's second line.
        assert_eq!(
            translate_syntax_error(
                "Invalid flags supplied to RegExp constructor 'gg'",
                "x;\n/a/gg;",
                2,
                1
            ),
            "Invalid regular expression flags"
        );
    }

    #[test]
    fn a_literals_escaped_flag_passes_through_as_the_engine_words_it() {
        // Measured on reference@0.5.6: `/./\u0067` starting the program's second line.
        assert_eq!(
            translate_syntax_error(
                "Invalid regular expression flags",
                "x;\n/./\\u0067.test('a');",
                2,
                1
            ),
            "Invalid regular expression flags"
        );
    }

    #[test]
    fn a_misplaced_private_name_is_an_unexpected_identifier() {
        assert_eq!(
            translate_syntax_error(
                "unexpected token in expression: '#x'",
                "class C { #x; m() { #x in #x in this } }",
                1,
                27
            ),
            "Unexpected identifier '#x'"
        );
    }

    #[test]
    fn a_stray_backslash_is_no_token() {
        assert_eq!(
            translate_syntax_error(
                "unexpected token in expression: '\\'",
                "const a = 1;\\nreturn a",
                1,
                13
            ),
            "Invalid or unexpected token"
        );
    }

    #[test]
    fn lines_are_counted_as_the_engine_counts_them() {
        // LS, PS and a lone CR end a line for the engine: the token after `x\u{2028}++` is on
        // the second line, not in the comment after the next LF.
        let source = "x\u{2028}++;\n// The end";
        assert_eq!(
            translate_syntax_error("unexpected token", source, 2, 3),
            "Unexpected token ';'"
        );
        assert_eq!(
            translate_syntax_error("unexpected token", "a\rb c\nd", 2, 3),
            "Unexpected identifier 'c'"
        );
    }

    #[test]
    fn an_escaped_identifier_is_named_by_what_it_spells() {
        assert_eq!(
            translate_syntax_error("expected 'of'", "for (var x o\\u0066 [])", 1, 12),
            "Unexpected identifier 'of'"
        );
        assert_eq!(
            translate_syntax_error("unexpected token", "var \\u{00_76} = 1", 1, 5),
            "Invalid Unicode escape sequence"
        );
        assert_eq!(
            translate_syntax_error("unexpected token", "var a\u{180e} = 1", 1, 6),
            "Invalid or unexpected token"
        );
        // `for await (`: a loop's head, not a call of `await`.
        assert_eq!(
            translate_syntax_error("expected 'of'", "for await (var x o\\u0066 [])", 1, 18),
            "Unexpected identifier 'of'"
        );
    }

    #[test]
    fn a_for_of_over_an_optional_chain_or_a_pattern_keeps_the_default() {
        let at = |source: &str, column| {
            translate_message(
                "undefined is not iterable (cannot read property Symbol(Symbol.iterator))",
                Some(SourcePosition {
                    source,
                    line: 1,
                    column,
                }),
            )
        };
        assert_eq!(
            at("for (const key of obj?.a) {}", 19),
            "undefined is not iterable (cannot read property Symbol(Symbol.iterator))"
        );
        assert_eq!(
            at("for ({ x: [x] } of [{}]) {}", 11),
            "undefined is not iterable (cannot read property Symbol(Symbol.iterator))"
        );
        assert_eq!(
            at("for (x of undefined) {}", 11),
            "undefined is not iterable"
        );
        let nullish = |source: &str, column| {
            translate_message(
                "Cannot destructure 'null' as it is null.",
                Some(SourcePosition {
                    source,
                    line: 1,
                    column,
                }),
            )
        };
        assert_eq!(
            nullish("for ({} of [null]) {}", 6),
            "Cannot read properties of null"
        );
        assert_eq!(
            nullish("for ({ a } of [null]) {}", 6),
            "Cannot read properties of null (reading 'a')"
        );
        assert_eq!(
            nullish("for (const { a } of [null]) {}", 12),
            "Cannot destructure property 'a' of '.for' as it is null."
        );
    }

    #[test]
    fn not_iterable_names_the_expression_or_the_call() {
        let at = |source, line, column| {
            translate_message(
                "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))",
                Some(SourcePosition {
                    source,
                    line,
                    column,
                }),
            )
        };
        assert_eq!(at("for (const x of 5) {}", 1, 17), "5 is not iterable");
        assert_eq!(
            at("for (const x of await f()) {}", 1, 17),
            "(intermediate value) is not iterable"
        );
        // `yield*` keeps V8's default text, but for a call or a member (measured on
        // reference@0.5.6).
        assert_eq!(
            at("function* g() { yield* 5 } [...g()]", 1, 17),
            "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))"
        );
        assert_eq!(
            at("function* g() { yield* m.list() } [...g()]", 1, 17),
            "yield* (intermediate value) is not iterable"
        );
        assert_eq!(
            at("function* g() { yield* 10n } [...g()]", 1, 17),
            "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))"
        );
        let async_at = |source, column| {
            translate_message(
                "number 42 is not async iterable",
                Some(SourcePosition {
                    source,
                    line: 1,
                    column,
                }),
            )
        };
        assert_eq!(
            async_at("for await (const x of 42) {}", 23),
            "42 is not async iterable"
        );
        assert_eq!(
            async_at("for await (const x of m.list()) {}", 23),
            "m.list(...) is not a function or its return value is not async iterable"
        );
        assert_eq!(
            at("for (const [k] of m.get('x')) {}", 1, 20),
            "m.get is not a function or its return value is not iterable"
        );
        assert_eq!(at("const a = [...n];", 1, 12), "n is not iterable");
        assert_eq!(
            at("const [a, b] = m.get('x');", 1, 16),
            "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))"
        );
        assert_eq!(
            at("return Math.max(...n)", 1, 17),
            "Spread syntax requires ...iterable[Symbol.iterator] to be a function"
        );
        assert_eq!(
            translate_message(
                "undefined is not iterable (cannot read property Symbol(Symbol.iterator))",
                None
            ),
            "undefined is not iterable (cannot read property Symbol(Symbol.iterator))"
        ); // Measured on reference@0.5.6: an array pattern's default is printed only when taken
        // (the value is undefined), an assignment's pattern and a pattern inside a pattern
        // keep the default text.
        let null_at = |source, column| {
            translate_message(
                "object null is not iterable (cannot read property Symbol(Symbol.iterator))",
                Some(SourcePosition {
                    source,
                    line: 1,
                    column,
                }),
            )
        };
        let undefined_at = |source, column| {
            translate_message(
                "undefined is not iterable (cannot read property Symbol(Symbol.iterator))",
                Some(SourcePosition {
                    source,
                    line: 1,
                    column,
                }),
            )
        };
        assert_eq!(
            null_at("var f = ({ w: [x, y] = [4, 5] }) => {};", 15),
            "object null is not iterable (cannot read property Symbol(Symbol.iterator))"
        );
        assert_eq!(
            undefined_at("var f = ({ w: [x] = undefined }) => {};", 15),
            "undefined is not iterable"
        );
        assert_eq!(
            null_at("var f = ({ w: [x] = n }) => {};", 15),
            "n is not iterable"
        );
        assert_eq!(
            translate_message(
                "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))",
                Some(SourcePosition {
                    source: "var f = ({ w: [x] = 5 }) => {};",
                    line: 1,
                    column: 15,
                }),
            ),
            "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))"
        );
        assert_eq!(
            undefined_at("var f = ([x] = undefined) => {};", 10),
            "undefined is not iterable (cannot read property Symbol(Symbol.iterator))"
        );
        assert_eq!(
            null_at("for (const [a] of [null]) {}", 19),
            ".for is not iterable"
        );
        assert_eq!(
            null_at("for ([a] of [null]) {}", 13),
            "object null is not iterable (cannot read property Symbol(Symbol.iterator))"
        );
        assert_eq!(
            null_at("var f = ([[x]] = [null]) => {};", 10),
            "object null is not iterable (cannot read property Symbol(Symbol.iterator))"
        );
        assert_eq!(
            null_at("[x] = null;", 1),
            "object null is not iterable (cannot read property Symbol(Symbol.iterator))"
        );
        assert_eq!(null_at("const [x] = null;", 7), "null is not iterable");
    }

    #[test]
    fn destructuring_nullish_names_the_property_and_the_source() {
        let at = |source, line, column| {
            translate_message(
                "Cannot destructure 'undefined' as it is undefined.",
                Some(SourcePosition {
                    source,
                    line,
                    column,
                }),
            )
        };
        assert_eq!(
            at("const { b } = a;", 1, 7),
            "Cannot destructure property 'b' of 'a' as it is undefined."
        );
        assert_eq!(
            at("const { b: c, d } = f(1);", 1, 7),
            "Cannot destructure property 'b' of 'f(...)' as it is undefined."
        );
        assert_eq!(
            at("const g = ({ a }) => a;", 1, 12),
            "Cannot destructure property 'a' of 'undefined' as it is undefined."
        );
        assert_eq!(
            at("const { b } = await f();", 1, 7),
            "Cannot destructure property 'b' of '(intermediate value)' as it is undefined."
        );
        assert_eq!(
            at("const { b: { c } } = await f();", 1, 12),
            "Cannot read properties of undefined (reading 'c')"
        );
        assert_eq!(
            at("const { b = 1 } = a;", 1, 7),
            "Cannot read properties of undefined (reading 'b')"
        );
        assert_eq!(
            at("const { b: { c } } = a;", 1, 12),
            "Cannot read properties of undefined (reading 'c')"
        );
        assert_eq!(
            at("for (const { id } of [x]) {}", 1, 12),
            "Cannot destructure property 'id' of '.for' as it is undefined."
        );
        assert_eq!(
            at("try { f() } catch ({ message }) {}", 1, 20),
            "Cannot destructure property 'message' of '.catch' as it is undefined."
        );
        // Measured on reference@0.5.6: a nested pattern's default, a parameter's default, an
        // empty parameter pattern.
        assert_eq!(
            at("var f = ({ w: { x, y } = { x: 4, y: 5 } }) => {};", 1, 15),
            "Cannot destructure property 'x' of '{(intermediate value)(intermediate value)}' as it is undefined."
        );
        assert_eq!(
            at("var f = ({ w: { x } = undefined }) => {};", 1, 15),
            "Cannot destructure property 'x' of 'undefined' as it is undefined."
        );
        assert_eq!(
            at("var f = ({ x } = undefined) => {};", 1, 10),
            "Cannot destructure property 'x' of '(intermediate value)(intermediate value)(intermediate value)' as it is undefined."
        );
        assert_eq!(
            at("function f({} = undefined) {}", 1, 12),
            "Cannot destructure '(intermediate value)(intermediate value)(intermediate value)' as it is undefined."
        );
        assert_eq!(
            at("function f(a, {}) {}", 1, 15),
            "Cannot destructure 'undefined' as it is undefined."
        );
        assert_eq!(
            at("const {} = undefined;", 1, 7),
            "Cannot destructure 'undefined' as it is undefined."
        );
    }

    #[test]
    fn not_a_function_names_a_recoverable_callee() {
        let at = |source, line, column| {
            translate_message(
                "not a function",
                Some(SourcePosition {
                    source,
                    line,
                    column,
                }),
            )
        };
        assert_eq!(at("const o = {}; o.f()", 1, 16), "o.f is not a function");
        // The call's parenthesis (engine patch 0023): the second call of `b()()`.
        assert_eq!(at("b()()", 1, 4), "b(...) is not a function");
        // A private name prints as a key (measured on reference@0.5.6).
        assert_eq!(at("return o.#f()", 1, 12), "o[#f] is not a function");
        assert_eq!(
            at("return this.x.#f()", 1, 17),
            "this.x[#f] is not a function"
        );
        assert_eq!(at("x = [1, 2]\n(0).n()", 2, 1), "[1,2] is not a function");
        assert_eq!(
            at("x = { a: 1 }\n(0).n()", 2, 1),
            "{(intermediate value)} is not a function"
        );
        assert_eq!(
            at("const t = {}; t[Symbol.iterator]()", 1, 23),
            "t[Symbol.iterator] is not a function"
        );
        assert_eq!(
            at("x\n  api.tools.list()", 2, 12),
            "api.tools.list is not a function"
        );
        assert_eq!(at("(1)()", 1, 1), "not a function");
        assert_eq!(
            at("async () => (await codemode.get()).map(x => x)", 1, 36),
            "(intermediate value).map is not a function"
        );
        assert_eq!(
            at("async () => (await codemode.get()).map(x => x)", 1, 40),
            "(intermediate value).map is not a function"
        );
        assert_eq!(
            at("items.forEach((x) => x)", 1, 16),
            "items.forEach is not a function"
        );
        assert_eq!(at("(x => x)", 1, 2), "not a function");
        assert_eq!(
            at("return new Cache().page()", 1, 20),
            "(intermediate value).page is not a function"
        );
        assert_eq!(
            at("const arr = [1]; arr.map((x) => x).foo()", 1, 36),
            "arr.map(...).foo is not a function"
        );
        assert_eq!(
            at("{\n  console.log('x')\n  `then`\n}", 3, 3),
            "console.log(...) is not a function"
        );
        assert_eq!(
            at("return (await api.get()).map((x) => x)", 1, 26),
            "(intermediate value).map is not a function"
        );
        assert_eq!(
            at("return 'abc'.foo()", 1, 14),
            "\"abc\".foo is not a function"
        );
        assert_eq!(translate_message("not a function", None), "not a function");
    }

    #[test]
    fn messages_v8_already_shares_pass_through() {
        for m in [
            "undefinedVariable is not defined",
            "Expected property name or '}' in JSON at position 1 (line 1 column 2)",
            "Unexpected end of JSON input",
            "boom",
        ] {
            assert_eq!(translate_message(m, None), m);
        }
    }

    #[test]
    fn other_runtime_messages_read_as_v8() {
        assert_eq!(
            translate_message("x is not initialized", None),
            "Cannot access 'x' before initialization"
        );
        assert_eq!(
            translate_message("unexpected token: 'x'", None),
            "Unexpected token 'x', \"x\" is not valid JSON"
        );
        assert_eq!(
            translate_rendered("TypeError: toPrimitive"),
            "TypeError: Cannot convert object to primitive value"
        );
        assert_eq!(translate_rendered("plain: text"), "plain: text");
        assert_eq!(
            translate_message("toPrimitive", None),
            "Cannot convert object to primitive value"
        );
        assert_eq!(
            translate_message("empty array", None),
            "Reduce of empty array with no initial value"
        );
        assert_eq!(
            translate_message("this is not initialized", None),
            "Must call super constructor in derived class before accessing 'this' or returning from derived constructor"
        );
        assert_eq!(
            translate_rendered("URIError: expecting hex digit"),
            "URIError: URI malformed"
        );
        assert_eq!(
            translate_rendered("Error: expecting hex digit"),
            "Error: expecting hex digit"
        );
    }

    #[test]
    fn syntax_errors_name_the_unexpected_token() {
        assert_eq!(
            translate_syntax_error(
                "variable name expected",
                "async () => { const class = 1 }",
                1,
                21
            ),
            "Unexpected token 'class'"
        );
        assert_eq!(
            translate_syntax_error("class statement requires a name", "class {", 1, 7),
            "Unexpected token '{'"
        );
        assert_eq!(
            translate_syntax_error(
                "unexpected token in expression: ''",
                "async () => 1 +",
                1,
                16
            ),
            "Unexpected end of input"
        );
        assert_eq!(
            translate_syntax_error("unexpected end of string", "'a", 1, 1),
            "Invalid or unexpected token"
        );
        assert_eq!(
            translate_syntax_error("expecting ';'", "a\nlet b = foo bar", 2, 13),
            "Unexpected identifier 'bar'"
        );
        // LS, PS and a lone CR end a line as LF does, for the engine and V8.
        for terminator in ["\u{2028}", "\u{2029}", "\r", "\r\n"] {
            let source = format!("a{terminator}let b = foo bar");
            assert_eq!(
                translate_syntax_error("expecting ';'", &source, 2, 13),
                "Unexpected identifier 'bar'"
            );
        }
        // TypeScript: `async (` is a call of `async` to V8; `a?:` a conditional.
        assert_eq!(
            translate_syntax_error("expecting ')'", "async (out: number[]) => out", 1, 11),
            "missing ) after argument list"
        );
        assert_eq!(
            translate_syntax_error("expecting ')'", "function f(x: number) {}", 1, 13),
            "Unexpected token ':'"
        );
        assert_eq!(
            translate_syntax_error("expecting ')'", "const f = (a?: T) => a", 1, 13),
            "Unexpected token ':'"
        );
        assert_eq!(
            translate_syntax_error("Invalid left-hand side in assignment", "a + 1 = 1", 1, 1),
            "Invalid left-hand side in assignment"
        );
    }
}
