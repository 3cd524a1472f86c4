import CJavaScriptCore

/// A JavaScript value of a ``JSRuntime``.
///
/// Valid only in the runtime that made it, and only while JavaScript can reach it or it is
/// protected (``JSRuntime/protect(_:)``): JavaScriptCore's collector scans native stacks, not
/// Swift memory. The name is the runtime's, so code above ``FocalRuntime`` never imports
/// JavaScriptCore's C module to hold one.
public typealias ScriptValue = JSValueRef

/// A JavaScript object of a ``JSRuntime``: a ``ScriptValue`` known to be an object, with the
/// same rules of validity.
public typealias ScriptObject = JSObjectRef
