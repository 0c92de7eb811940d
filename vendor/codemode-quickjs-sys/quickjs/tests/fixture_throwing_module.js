throw new Error("Nuke the entire site from orbit. It's the only way to be sure.")
