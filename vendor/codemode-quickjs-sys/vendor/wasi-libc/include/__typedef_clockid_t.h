/* Vendored from wasi-libc by scripts/vendor-wasm-libc.sh - do not edit.
   MIT / Apache-2.0 WITH LLVM-exception; see sys/vendor/wasi-libc/NOTICE.md. */
#ifndef __wasilibc___typedef_clockid_t_h
#define __wasilibc___typedef_clockid_t_h

typedef const struct __clockid *clockid_t;

#endif
