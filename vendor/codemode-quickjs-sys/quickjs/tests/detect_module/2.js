await = 42 // parsed as classic script
