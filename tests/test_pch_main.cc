// Holds the precompiled header that every Catch2 test binary reuses (tests/CMakeLists.txt,
// openatc_test_pch); the program itself does nothing.
int main() { return 0; }
