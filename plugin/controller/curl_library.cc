// Implementation of curl_library.h.
#include "plugin/controller/curl_library.h"

#include <dlfcn.h>

#include <mutex>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace nsxalb::controller {
namespace {

absl::Status NotLoaded(const std::string& soname, const std::string& why) {
  return absl::FailedPreconditionError(absl::StrCat("controller: ", soname,
                                                    " could not be loaded (", why,
                                                    "); install Debian's libcurl4 package"));
}

std::string LastDlError(const char* fallback) {
  const char* e = dlerror();
  return e != nullptr ? std::string(e) : std::string(fallback);
}

// Looks up `name` in `handle` and stores it in `*fn`; false (with `*why` set) when missing.
template <typename Fn>
bool Resolve(void* handle, const char* name, Fn* fn, std::string* why) {
  dlerror();  // clear any earlier error
  void* sym = dlsym(handle, name);
  if (sym == nullptr) {
    *why = absl::StrCat("no function ", name, ": ", LastDlError("symbol not found"));
    return false;
  }
  *fn = reinterpret_cast<Fn>(sym);
  return true;
}

}  // namespace

absl::StatusOr<CurlLibrary> LoadCurlLibrary(const std::string& soname) {
  dlerror();
  // RTLD_LOCAL: libcurl and the shared OpenSSL it brings stay out of the global namespace, so
  // nothing else in the process binds to them.
  void* handle = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return NotLoaded(soname, LastDlError("dlopen failed"));
  CurlLibrary lib;
  std::string why;
  bool ok = Resolve(handle, "curl_global_init", &lib.global_init, &why) &&
            Resolve(handle, "curl_easy_init", &lib.easy_init, &why) &&
            Resolve(handle, "curl_easy_cleanup", &lib.easy_cleanup, &why) &&
            Resolve(handle, "curl_easy_reset", &lib.easy_reset, &why) &&
            Resolve(handle, "curl_easy_setopt", &lib.easy_setopt, &why) &&
            Resolve(handle, "curl_easy_perform", &lib.easy_perform, &why) &&
            Resolve(handle, "curl_easy_getinfo", &lib.easy_getinfo, &why) &&
            Resolve(handle, "curl_easy_strerror", &lib.easy_strerror, &why) &&
            Resolve(handle, "curl_share_init", &lib.share_init, &why) &&
            Resolve(handle, "curl_share_setopt", &lib.share_setopt, &why) &&
            Resolve(handle, "curl_share_cleanup", &lib.share_cleanup, &why) &&
            Resolve(handle, "curl_slist_append", &lib.slist_append, &why) &&
            Resolve(handle, "curl_slist_free_all", &lib.slist_free_all, &why);
  if (!ok) {
    dlclose(handle);
    return NotLoaded(soname, why);
  }
  return lib;  // `handle` stays open: the table points into it for the rest of the process.
}

absl::StatusOr<const CurlLibrary*> LoadCurl() {
  static std::once_flag once;
  static absl::StatusOr<const CurlLibrary*>* loaded = nullptr;  // never destroyed
  std::call_once(once, [] {
    auto lib = LoadCurlLibrary(kCurlLibraryName);
    if (!lib.ok()) {
      loaded = new absl::StatusOr<const CurlLibrary*>(lib.status());
      return;
    }
    CURLcode code = lib->global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
      loaded = new absl::StatusOr<const CurlLibrary*>(NotLoaded(
          kCurlLibraryName, absl::StrCat("curl_global_init failed: ", lib->easy_strerror(code))));
      return;
    }
    loaded = new absl::StatusOr<const CurlLibrary*>(new CurlLibrary(*lib));
  });
  return *loaded;
}

}  // namespace nsxalb::controller
