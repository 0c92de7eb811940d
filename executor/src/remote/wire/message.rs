//! Cap'n Web's top-level messages: one JSON array per WebSocket text frame.

use serde_json::Value;

/// One message, with its expressions still in their JSON form (they are evaluated against
/// the session's tables).
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// `["push", expr]`: evaluate `expr` (usually a call) under the next positive import ID.
    Push(Value),
    /// `["pull", importId]`: the sender wants the resolution of its import.
    Pull(i64),
    /// `["resolve", exportId, expr]`.
    Resolve(i64, Value),
    /// `["reject", exportId, expr]`.
    Reject(i64, Value),
    /// `["release", importId, refcount]`.
    Release(i64, u64),
    /// `["abort", expr]`: the sender ends the session for the reason `expr`.
    Abort(Value),
}

impl Message {
    /// Reads one frame's text. The error names what was wrong, for the abort reason.
    pub fn parse(text: &str) -> Result<Message, String> {
        let json: Value = serde_json::from_str(text)
            .map_err(|e| format!("A message is not JSON ({e}): {}", excerpt(text)))?;
        let bad = || format!("Unknown or malformed message {}", excerpt(text));
        let Value::Array(parts) = &json else {
            return Err(bad());
        };
        let Some(Value::String(kind)) = parts.first() else {
            return Err(bad());
        };
        let id = |index: usize| parts.get(index).and_then(Value::as_i64);
        Ok(match (kind.as_str(), parts.len()) {
            ("push", 2) => Message::Push(parts[1].clone()),
            ("pull", 2) => Message::Pull(id(1).ok_or_else(bad)?),
            ("resolve", 3) => Message::Resolve(id(1).ok_or_else(bad)?, parts[2].clone()),
            ("reject", 3) => Message::Reject(id(1).ok_or_else(bad)?, parts[2].clone()),
            ("release", 3) => {
                Message::Release(id(1).ok_or_else(bad)?, parts[2].as_u64().ok_or_else(bad)?)
            }
            ("abort", 2) => Message::Abort(parts[1].clone()),
            ("stream" | "pipe", _) => {
                return Err(format!(
                    "The message type \"{kind}\" (streams) is not supported by this peer."
                ));
            }
            _ => return Err(bad()),
        })
    }

    /// The frame's text, written from the expressions in place (not copied into a new tree).
    pub fn to_text(&self) -> String {
        let text = match self {
            Message::Push(expr) => serde_json::to_string(&("push", expr)),
            Message::Pull(id) => serde_json::to_string(&("pull", id)),
            Message::Resolve(id, expr) => serde_json::to_string(&("resolve", id, expr)),
            Message::Reject(id, expr) => serde_json::to_string(&("reject", id, expr)),
            Message::Release(id, count) => serde_json::to_string(&("release", id, count)),
            Message::Abort(expr) => serde_json::to_string(&("abort", expr)),
        };
        text.expect("a message always serializes")
    }
}

/// The start of a text, for error messages.
pub fn excerpt(text: &str) -> String {
    if text.len() <= 120 {
        return text.to_string();
    }
    let mut end = 120;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}
