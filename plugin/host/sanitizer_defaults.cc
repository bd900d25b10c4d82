// AddressSanitizer's defaults for the provider binary of a sanitizer tree (NSXALB_SANITIZE only:
// plugin/CMakeLists.txt links this file into that binary and into no other). The runtime calls
// __asan_default_options() before it reads ASAN_OPTIONS, which still overrides what it returns.
//
// intercept_tls_get_addr=0: that binary is linked against Debian's static archives
// (host/static_link.sh --sanitizer-build), and then the thread-local block of a library that
// libcurl brings in with dlopen (controller/curl_library.cc; GnuTLS, through librtmp) is no
// longer in glibc's static TLS. clang 14's LeakSanitizer takes such a block's bounds from a
// header it guesses from glibc 2.19's layout, reads an address like 0x600 there, and its leak
// check at exit dies with SIGSEGV ("Tracer caught signal 11"): every `controller` command of the
// Ansible scenarios did, 2026-12-07. Without the interception LeakSanitizer does not scan those
// dynamic blocks for pointers: fewer roots, so a leak can only be reported more, never hidden.
// The static thread-local storage of the binary and of the libraries it starts with is still
// scanned.
extern "C" const char* __asan_default_options() {  // NOLINT(bugprone-reserved-identifier)
  return "intercept_tls_get_addr=0";
}
