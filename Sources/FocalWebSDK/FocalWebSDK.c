#include "FocalWebSDK.h"

// The file as it is, then a NUL (so an empty file still makes an array). The build reads it
// again whenever it changes: clang lists an #embed'ed file among the dependencies it reports.
static const unsigned char module[] = {
#embed "focal.js" suffix(, 0)
};

const unsigned char *focal_web_sdk_module(void) { return module; }

size_t focal_web_sdk_module_length(void) { return sizeof module - 1; }
