// libcurl (Debian's libcurl4-openssl-dev) for the uploads' HTTP client. `curl_easy_setopt` and
// `curl_easy_getinfo` are variadic, which Swift cannot call: these wrappers give each argument
// kind its own typed function.
#include <curl/curl.h>

/// A callback that receives a response's header line or body bytes (CURLOPT_HEADERFUNCTION,
/// CURLOPT_WRITEFUNCTION).
typedef size_t (*timerdeck_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode timerdeck_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode timerdeck_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode timerdeck_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode timerdeck_curl_set_callback(
    CURL *handle, CURLoption option, timerdeck_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode timerdeck_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode timerdeck_curl_get_certinfo(CURL *handle, struct curl_certinfo **value) {
    return curl_easy_getinfo(handle, CURLINFO_CERTINFO, value);
}

static inline CURLcode timerdeck_curl_get_socket(CURL *handle, curl_socket_t *value) {
    return curl_easy_getinfo(handle, CURLINFO_ACTIVESOCKET, value);
}
