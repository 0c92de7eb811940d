const m = await import("./empty.js")
print(m) // should not throw
