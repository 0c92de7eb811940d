// note: file is not actually compiled, only checked for C++ syntax errors
#include "ctest.c"
