#ifndef FOCAL_CJAVASCRIPTCORE_SHIM_H
#define FOCAL_CJAVASCRIPTCORE_SHIM_H

#include <JavaScriptCore/JavaScript.h>

// Exported by libjavascriptcoregtk-4.1 but missing from its public headers
// (JavaScriptCore/API/JSContextRefPrivate.h upstream). The watchdog terminates
// a script that runs longer than `limit` seconds when `callback` returns true
// (or is NULL).
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
JS_EXPORT void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit,
                                                   JSShouldTerminateCallback callback,
                                                   void *context);
JS_EXPORT void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);

// Exported but private (JavaScriptCore/API/JSBasePrivate.h upstream): an object with
// the heap's `heapSize`, `heapCapacity`, `extraMemorySize` and `objectCount` (and
// per-type counts, which is why it walks the heap).
JS_EXPORT JSObjectRef JSGetMemoryUsageStatistics(JSContextRef ctx);

// Exported but private (JavaScriptCore/API/JSContextRefPrivate.h upstream): a full
// collection, now (JSGarbageCollect only hints that one would be welcome).
JS_EXPORT void JSSynchronousGarbageCollectForDebugging(JSContextRef ctx);

// Exported but private (JavaScriptCore/API/JSContextRefPrivate.h upstream): the running
// JavaScript stack, one `#index name() at url:line` line per frame, innermost first, at
// most `maxStackSize` frames. The innermost frame's line is that of its latest call (its
// first line when it made none).
JS_EXPORT JSStringRef JSContextCreateBacktrace(JSContextRef ctx, unsigned maxStackSize);

#endif
