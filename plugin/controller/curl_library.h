// libcurl, loaded at run time: the 13 libcurl functions the HTTPS transport calls, looked up with
// dlopen("libcurl.so.4") and dlsym the first time a transport is created.
//
// Why: the shipped provider binary is linked against static archives so Terraform can start it
// in a few milliseconds (docs/design/host.md, "Start-up time and memory"). Debian ships no static
// archives for libcurl's own dependencies (psl, ssh2, nghttp2, rtmp, gssapi, ldap, zstd), so
// linking libcurl made that static link impossible. Most provider processes (schema, validate,
// most of Terraform's walks) never talk to the Controller; they now never load libcurl at all,
// and the ones that do pay for it once, on first use. Only the headers of curl are used at build
// time, for its types and constants.
//
// A missing libcurl is an error the client returns (FailedPrecondition, naming Debian's libcurl4
// package), never a crash. Thread-safe.
#ifndef NSXALB_PLUGIN_CONTROLLER_CURL_LIBRARY_H_
#define NSXALB_PLUGIN_CONTROLLER_CURL_LIBRARY_H_

#include <curl/curl.h>

#include <string>

#include "absl/status/statusor.h"

namespace nsxalb::controller {

// The shared object loaded by LoadCurl(): libcurl's ABI 4, from Debian's libcurl4 package.
inline constexpr char kCurlLibraryName[] = "libcurl.so.4";

// Pointers to libcurl's functions, each with exactly the type <curl/curl.h> declares (the
// variadic ones included: call them with the same arguments as the real function). A table
// returned by a loader has every pointer set; the library stays loaded for the process's life.
struct CurlLibrary {
  // curl_global_init: process-wide setup (LoadCurl() calls it once).
  decltype(&::curl_global_init) global_init = nullptr;
  // curl_easy_init: a new easy handle, or null.
  decltype(&::curl_easy_init) easy_init = nullptr;
  // curl_easy_cleanup: frees an easy handle (and its connections).
  decltype(&::curl_easy_cleanup) easy_cleanup = nullptr;
  // curl_easy_reset: returns an easy handle to its initial options, keeping its connections.
  decltype(&::curl_easy_reset) easy_reset = nullptr;
  // curl_easy_setopt (variadic): sets one option on an easy handle.
  decltype(&::curl_easy_setopt) easy_setopt = nullptr;
  // curl_easy_perform: runs one transfer, blocking.
  decltype(&::curl_easy_perform) easy_perform = nullptr;
  // curl_easy_getinfo (variadic): reads one fact about the last transfer.
  decltype(&::curl_easy_getinfo) easy_getinfo = nullptr;
  // curl_easy_strerror: the text of a CURLcode.
  decltype(&::curl_easy_strerror) easy_strerror = nullptr;
  // curl_share_init: a new share handle (DNS cache, TLS sessions), or null.
  decltype(&::curl_share_init) share_init = nullptr;
  // curl_share_setopt (variadic): sets one option on a share handle.
  decltype(&::curl_share_setopt) share_setopt = nullptr;
  // curl_share_cleanup: frees a share handle no easy handle uses any more.
  decltype(&::curl_share_cleanup) share_cleanup = nullptr;
  // curl_slist_append: appends a copy of a string to a list (null list: a new one).
  decltype(&::curl_slist_append) slist_append = nullptr;
  // curl_slist_free_all: frees a whole list.
  decltype(&::curl_slist_free_all) slist_free_all = nullptr;
};

// The process's libcurl: loads kCurlLibraryName and calls curl_global_init the first time, then
// returns the same table (or the same error) on every call. FailedPrecondition "libcurl.so.4
// could not be loaded (...); install Debian's libcurl4 package" when the library or one of its
// functions is missing, or when curl_global_init fails.
absl::StatusOr<const CurlLibrary*> LoadCurl();

// Loads the shared object `soname` and looks up the table's functions in it, without calling
// curl_global_init: LoadCurl()'s worker, separate so tests can name a library that does not
// exist or lacks the functions. Each call returns a new table; the library is never unloaded
// once the table is complete (it is closed again on failure). Same errors as LoadCurl(), naming
// `soname`.
absl::StatusOr<CurlLibrary> LoadCurlLibrary(const std::string& soname);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_CURL_LIBRARY_H_
