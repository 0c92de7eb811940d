export const real = 1
