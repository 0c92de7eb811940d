//! What a large answer costs to cross the wire, in bytes held: the daemon writing it and the
//! client reading it back, for an outcome of two hundred thousand log lines (the catalogue's
//! `hostile/log-flood-two-hundred-thousand-lines`).
//!
//! The measure is the test binary's allocator: the system's, counting on each thread the
//! bytes that thread's allocations hold and their peak. A thread's count moves only with its
//! own allocations, so it is the same on an idle machine and a loaded one, whatever the other
//! tests do at the same time. Each bound is a multiple of the answer's text, which the
//! daemon holds whole (it is the frame) and the client receives whole.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

use codemode_executor::protocol::{JsValue, LogLevel, LogLine, Outcome};
use codemode_executor::remote::contract::{outcome_from_wire, outcome_to_wire};
use codemode_executor::remote::wire::{
    Incoming, RemoteStub, Tables, Target, WireValue, encode_text, frame,
};

/// The system allocator, counting per thread.
struct Counting;

thread_local! {
    /// The bytes this thread's allocations hold (frees of others' allocations count too).
    static HELD: Cell<isize> = const { Cell::new(0) };
    /// The largest [`HELD`] since the last [`peak_while`] started.
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(bytes: isize) {
    // A thread being torn down has no counters left; its allocations go uncounted.
    let _ = HELD.try_with(|held| {
        let now = held.get() + bytes;
        held.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is forwarded to `System` with the caller's own arguments; the counters
// are const-initialized thread locals with no destructor, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires of it.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            count(layout.size() as isize);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc_zeroed` requires of it.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            count(layout.size() as isize);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by this allocator (that is, by `System`) with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with `layout`; the caller vouches for
        // `new_size`.
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if !moved.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` on this thread, and answers what it returned with the most bytes held at once
/// during the call above what was held when it started.
fn peak_while<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = HELD.with(Cell::get);
    PEAK.with(|peak| peak.set(start));
    let value = f();
    let peak = PEAK.with(Cell::get) - start;
    (value, peak.max(0) as usize)
}

/// Tables for an answer with no stub in it.
struct NoStubs;

impl Tables for NoStubs {
    fn export(&mut self, _: Arc<dyn Target>) -> i64 {
        panic!("an outcome exports nothing")
    }
    fn import_stub(&mut self, id: i64) -> RemoteStub {
        RemoteStub::detached(id)
    }
    fn import_promise(&mut self, _: i64) -> Result<(), String> {
        Ok(())
    }
    fn local(&self, _: i64) -> Option<Arc<dyn Target>> {
        None
    }
}

const LINES: usize = 200_000;

/// The case's outcome: `200000`, and `line 0` … `line 199999` logged.
fn flood() -> Outcome {
    Outcome {
        result: JsValue::Number(LINES as f64),
        error: None,
        logs: (0..LINES)
            .map(|i| LogLine {
                level: LogLevel::Log,
                text: format!("line {i}"),
            })
            .collect(),
    }
}

/// The most the client may hold while it reads the answer, in multiples of the answer's
/// text (about 7.4 MB here). The text is its own 1; the answer's value, read straight from
/// the text, is about 10 (each line an object of two entries: about 380 bytes for about 37
/// of text); taken apart into the outcome, each line's object is dropped as its text moves
/// out: 10.7 in all. Parsing the text into a JSON tree first, copying that tree and copying
/// each line's text out of the value, as the wire once did, held 25.8.
const CLIENT_BOUND: usize = 12;

/// The most the daemon may hold while it writes the answer, above the outcome it already
/// holds, in multiples of the text: the value the outcome's texts move into (about 9: the
/// texts themselves were held already) and the text written straight from it (1): 9.8 in
/// all. Encoding into a JSON tree first, then copying the tree into the message, held about
/// twice that.
const DAEMON_BOUND: usize = 11;

#[test]
fn the_client_reads_a_flood_of_log_lines_holding_about_its_value_once() {
    let expression = encode_text(&outcome_to_wire(flood()), &mut NoStubs);
    let text = format!("[\"resolve\",1,{expression}]");
    drop(expression);
    let (outcome, peak) = peak_while(|| {
        let Incoming::Answer {
            id,
            rejected,
            value,
        } = frame::read(&text, &mut NoStubs).unwrap()
        else {
            panic!("the frame is an answer");
        };
        assert_eq!((id, rejected), (1, false));
        outcome_from_wire(value).unwrap()
    });
    assert_eq!(outcome, flood());
    eprintln!(
        "client: {} bytes of text, a peak of {peak} bytes ({:.1}×)",
        text.len(),
        peak as f64 / text.len() as f64
    );
    assert!(
        peak <= CLIENT_BOUND * text.len(),
        "reading an answer of {} bytes held {peak} bytes at once, more than {CLIENT_BOUND}× its text",
        text.len()
    );
}

#[test]
fn the_daemon_writes_a_flood_of_log_lines_holding_about_its_value_once() {
    let outcome = flood();
    let (text, peak) = peak_while(move || encode_text(&outcome_to_wire(outcome), &mut NoStubs));
    assert!(text.starts_with(r#"{"result":200000,"logs":[[{"level":"log","text":"line 0"},"#));
    assert!(text.ends_with(r#"{"level":"log","text":"line 199999"}]]}"#));
    eprintln!(
        "daemon: {} bytes of text, a peak of {peak} bytes ({:.1}×)",
        text.len(),
        peak as f64 / text.len() as f64
    );
    assert!(
        peak <= DAEMON_BOUND * text.len(),
        "writing an answer of {} bytes held {peak} bytes at once above its outcome, more than {DAEMON_BOUND}× its text",
        text.len()
    );
}

/// The value read straight from the text is the value the tree reader makes of it.
#[test]
fn an_answer_read_from_its_text_is_the_answer_read_through_a_tree() {
    let texts = [
        r#"["resolve",3,{"a":[[1,"x",null,true,-0.5]],"b":["undefined"],"c":["bigint","-12"]}]"#,
        r#"["reject",4,["error","TypeError","no",null,{"code":"E","n":[[["nan"],["inf"]]]}]]"#,
        r#"["resolve",5,{"k":1,"j":2,"k":3}]"#,
        r#"["resolve",6,[[["date",null],["bytes","AAE","ArrayBuffer"],["date",5]]]]"#,
        r#" [ "resolve" , 7 , [ [ ] ] ] "#,
    ];
    for text in texts {
        let Incoming::Answer { value, .. } = frame::read(text, &mut NoStubs).unwrap() else {
            panic!("{text} is an answer");
        };
        let tree: serde_json::Value = serde_json::from_str(text).unwrap();
        let expected = codemode_executor::remote::wire::decode(&tree[2], &mut NoStubs).unwrap();
        // Compared as written out: NaN is no value's equal, not even its own.
        assert_eq!(format!("{value:?}"), format!("{expected:?}"), "{text}");
        assert_eq!(
            encode_text(&value, &mut NoStubs),
            codemode_executor::remote::wire::encode(&value, &mut NoStubs).to_string(),
            "{text}"
        );
    }
    // Repeated keys: the first place, the last value.
    let Incoming::Answer { value, .. } =
        frame::read(r#"["resolve",1,{"k":1,"j":2,"k":3}]"#, &mut NoStubs).unwrap()
    else {
        panic!("an answer");
    };
    assert_eq!(
        value,
        WireValue::Object(vec![
            ("k".into(), WireValue::Number(3.0)),
            ("j".into(), WireValue::Number(2.0)),
        ])
    );
    // A refusal says what the tree reader says.
    for (text, says) in [
        (
            r#"["resolve",1,["what",1]]"#,
            "Unknown or malformed expression",
        ),
        (
            r#"["resolve",1,[[1],2]]"#,
            "Unknown or malformed expression",
        ),
        (r#"["resolve",1]"#, "Unknown or malformed message"),
        (r#"["resolve",1,{"a":1}"#, "A message is not JSON"),
    ] {
        let error = frame::read(text, &mut NoStubs).unwrap_err();
        assert!(error.starts_with(says), "{text}: {error}");
    }
}
