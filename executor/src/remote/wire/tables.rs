//! A session's import and export tables, with Cap'n Web's reference counts.
//!
//! - Exports (what the peer may call): ID 0 is our main object; each stub we send takes the
//!   next negative ID and counts its introductions; each push the peer sends takes the next
//!   positive ID and holds the call's answer until the peer releases it.
//! - Imports (what we may call): each push we send takes the next positive ID until its
//!   answer arrives; each stub the peer sends counts its introductions, and releasing it sends
//!   `["release", id, introductions]`, so the peer's count reaches zero exactly.
//!
//! The tables reach their session only as the stubs do, through [`Peer`].

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Utf8Bytes;

use super::codec::Tables;
use super::value::{CallError, Peer, RemoteStub, StubInner, Target, WireValue};

/// One of our exports.
pub(super) enum Export {
    /// ID 0: never released.
    Main(Arc<dyn Target>),
    /// A stub we sent, with how many times we introduced it.
    Target {
        target: Arc<dyn Target>,
        refcount: u64,
    },
    /// The answer to one of the peer's pushes.
    Answer {
        pulled: bool,
        /// The answer's message (`resolve` or `reject`) once the call has settled.
        settled: Option<Utf8Bytes>,
        refcount: u64,
    },
}

/// One of our imports.
pub(super) enum Import {
    /// A push of ours, waiting for its answer.
    Call(oneshot::Sender<Result<WireValue, CallError>>),
    /// A stub the peer sent, with how many times it introduced it.
    Stub {
        refcount: u64,
        handle: Weak<StubInner>,
    },
    /// A promise the peer sent; resolved by the peer.
    Promise {
        refcount: u64,
        settled: Option<Result<WireValue, CallError>>,
        waiters: Vec<oneshot::Sender<Result<WireValue, CallError>>>,
    },
}

/// Both tables and their ID counters.
pub(super) struct TableState {
    pub session: Weak<dyn Peer>,
    pub next_export: i64,
    pub next_push: i64,
    pub next_peer_push: i64,
    pub exports: HashMap<i64, Export>,
    pub imports: HashMap<i64, Import>,
}

impl TableState {
    pub fn new(session: Weak<dyn Peer>, main: Option<Arc<dyn Target>>) -> TableState {
        let mut exports = HashMap::new();
        if let Some(main) = main {
            exports.insert(0, Export::Main(main));
        }
        TableState {
            session,
            next_export: -1,
            next_push: 1,
            next_peer_push: 1,
            exports,
            imports: HashMap::new(),
        }
    }

    /// Applies the peer's `["release", id, count]`. The error is the abort reason.
    pub fn release_export(&mut self, id: i64, count: u64) -> Result<(), String> {
        let refcount = match self.exports.get_mut(&id) {
            None => {
                return Err(format!(
                    "A release names export {id}, which does not exist."
                ));
            }
            Some(Export::Main(_)) => return Ok(()),
            Some(Export::Target { refcount, .. }) | Some(Export::Answer { refcount, .. }) => {
                refcount
            }
        };
        if count > *refcount {
            return Err(format!(
                "A release of export {id} by {count} would push its refcount ({refcount}) below zero."
            ));
        }
        *refcount -= count;
        if *refcount == 0 {
            self.exports.remove(&id);
        }
        Ok(())
    }

    /// How many entries each table holds (the main object not counted).
    pub fn counts(&self) -> (usize, usize) {
        let exports = self
            .exports
            .values()
            .filter(|e| !matches!(e, Export::Main(_)))
            .count();
        (self.imports.len(), exports)
    }
}

impl Tables for TableState {
    fn export(&mut self, target: Arc<dyn Target>) -> i64 {
        let id = self.next_export;
        self.next_export -= 1;
        self.exports.insert(
            id,
            Export::Target {
                target,
                refcount: 1,
            },
        );
        id
    }

    fn import_stub(&mut self, id: i64) -> RemoteStub {
        match self.imports.get_mut(&id) {
            Some(Import::Stub { refcount, handle }) => {
                *refcount += 1;
                if let Some(inner) = handle.upgrade()
                    && !inner.is_disposed()
                {
                    return RemoteStub::from_inner(inner);
                }
                let stub = RemoteStub::new(id, self.session.clone());
                *handle = stub.downgrade();
                stub
            }
            _ => {
                let stub = RemoteStub::new(id, self.session.clone());
                self.imports.insert(
                    id,
                    Import::Stub {
                        refcount: 1,
                        handle: stub.downgrade(),
                    },
                );
                stub
            }
        }
    }

    fn import_promise(&mut self, id: i64) -> Result<(), String> {
        match self.imports.get_mut(&id) {
            Some(Import::Promise { refcount, .. }) => {
                *refcount += 1;
                Ok(())
            }
            Some(_) => Err(format!(
                "A promise expression reuses import {id}, which is not a promise."
            )),
            None => {
                self.imports.insert(
                    id,
                    Import::Promise {
                        refcount: 1,
                        settled: None,
                        waiters: Vec::new(),
                    },
                );
                Ok(())
            }
        }
    }

    fn local(&self, id: i64) -> Option<Arc<dyn Target>> {
        match self.exports.get(&id)? {
            Export::Main(target) | Export::Target { target, .. } => Some(target.clone()),
            Export::Answer { .. } => None,
        }
    }
}
