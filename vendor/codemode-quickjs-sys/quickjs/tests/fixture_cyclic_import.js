import * as a from "./bug567.js"
export function f(x) { return 2 * a.g(x) }
