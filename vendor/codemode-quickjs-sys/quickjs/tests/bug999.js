function* f(r){ return r } // must return r
[...f({})]

