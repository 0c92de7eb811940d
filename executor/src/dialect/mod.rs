//! The `@cloudflare/codemode` dialect over any native executor.
