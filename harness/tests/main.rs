//! The harness's integration tests, one binary (each test binary links the executor, the
//! engine and the rest, so one binary links once), with a module per concept. The
//! catalogue's cells are a binary of their own (`catalogue.rs`, through libtest-mimic). A
//! test is named by its module path: `cargo test -p codemode-compat --test main --
//! report::html::` runs one file's tests, `-- sides::` one concept's.
//!
//! `support` holds what several files share.

mod support;

/// The commands on small inputs: `matrix` as CI runs it, `explore`, `test262` and `wpt` on
/// tiny suites, the release lines and merging per-column reports.
mod commands {
    mod explore;
    mod matrix;
    mod releases;
    mod test262;
    mod wpt;
}

/// The reports end to end: retries and shards, `matrix.html` in a real browser, `junit.xml`,
/// and transitions against the baseline.
mod report {
    mod flaky;
    mod html;
    mod junit;
    mod transitions;
}

/// The sides' processes: the reference under `wrangler dev` and the remote executor's
/// daemon, their failure modes, the wire against the npm `capnweb` peer, and our side's
/// event loop giving one order on every run.
mod sides {
    mod event_loop;
    mod lifecycle;
    mod remote_faults;
    mod remote_interop;
}

/// The catalogue loader under property tests.
mod loader {
    mod properties;
}

/// The dialect's pure parts against upstream's own functions.
mod dialect {
    mod pure_parts;
}

/// The repository's habits: the tidy checks.
mod repository {
    mod tidy;
}
