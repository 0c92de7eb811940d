await undefined
