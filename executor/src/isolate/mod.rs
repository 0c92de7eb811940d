//! The QuickJS native executor.
