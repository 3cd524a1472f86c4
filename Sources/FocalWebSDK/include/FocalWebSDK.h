#ifndef FOCAL_WEB_SDK_H
#define FOCAL_WEB_SDK_H

#include <stddef.h>

/// The bytes of `focal.js`, the web pages' SDK (an ES module, UTF-8), as the build found the
/// file beside this target's source: compiled into the binary, so `focal serve` serves it with
/// no file beside it. Followed by one NUL byte, not counted in ``focal_web_sdk_module_length()``.
const unsigned char *focal_web_sdk_module(void);

/// The length of ``focal_web_sdk_module()``, in bytes.
size_t focal_web_sdk_module_length(void);

#endif
