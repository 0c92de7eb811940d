//! The executor's integration tests, one binary (each test binary links the engine, ICU4X and
//! the rest, so one binary links once), with a module per concept: the isolate executor, the
//! dialect over it, the remote executor, the pure parts, and the crate as it ships. A test is
//! named by its module path: `cargo test -p codemode-executor --test main -- isolate::bounds::`
//! runs one file's tests, `-- remote::` one concept's.
//!
//! `support` holds the helpers several files share.

mod support;

/// The QuickJS isolate executor through its public API: results, bounds, restored
/// sandboxes, strings, outbound requests, the Web globals and V8's texts.
mod isolate {
    mod basics;
    mod bounds;
    mod host_bounds;
    mod hostile;
    mod outbound;
    mod restore;
    mod strings;
    mod v8_parity;
    mod web;
}

/// The dialect (`CodemodeExecutor`) over a scripted native executor and over the isolate,
/// typed tools included.
mod dialect {
    mod execute;
    mod isolate;
    mod typed_tools;
}

/// The remote executor: the wire's Cap'n Web subset, the native contract on it, and the
/// daemon and the client together on loopback.
#[cfg(feature = "remote")]
mod remote {
    mod contract;
    mod loopback;
    mod memory;
    mod wire;
}

/// The parts with no engine: conversions between `JsValue` and serde data, and property
/// tests of the codec, normalization and tool names.
mod pure {
    mod convert;
    mod properties;
}

/// The crate as it ships: the README's example, a host outside this repository, and the
/// engine the crate links.
mod packaging {
    mod outside_host;
    mod readme;
    mod vendor_patches;
}
