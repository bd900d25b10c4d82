// The one source of nsxalb_test_precompiled_headers, the target that builds the precompiled
// headers every GoogleTest executable reuses (tests/CMakeLists.txt). It declares nothing.
