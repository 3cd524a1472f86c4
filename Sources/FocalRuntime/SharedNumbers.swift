import CJavaScriptCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers that host code writes and JavaScript reads, neither calling the other: a
/// `Float64Array` over memory of the host's.
///
/// Writing one is a store to memory, not a call into JavaScriptCore (which takes the virtual
/// machine's lock), so host code can tell scripts of a change at no cost, and a script reads it
/// as it reads any typed array. The memory belongs to the array and is freed when the collector
/// takes it; ``array`` keeps it protected, so the numbers are valid as long as this value is.
/// Confined, like its runtime, to the thread that runs it.
package struct SharedNumbers {
    /// The `Float64Array`, for host code to hand to its own scripts (a task that reached it could
    /// change what host code reads).
    package let array: ProtectedValue
    private let numbers: UnsafeMutablePointer<Double>

    /// `count` numbers, all 0.
    package init(count: Int, in runtime: JSRuntime) throws(ScriptError) {
        let (array, memory) = try runtime.makeHostTypedArray(
            kJSTypedArrayTypeFloat64Array, byteCount: MemoryLayout<Double>.stride * max(count, 1), named: "Float64Array")
        self.array = array
        numbers = memory.bindMemory(to: Double.self, capacity: max(count, 1))
    }

    /// The number at `index`, which must be below the count it was made with.
    @inlinable
    package subscript(index: Int) -> Double {
        get { numbers[index] }
        nonmutating set { numbers[index] = newValue }
    }
}

extension JSRuntime {
    /// A typed array of `type` over `byteCount` bytes of host memory, all 0, protected, and the memory; the memory
    /// belongs to the array and is freed when the collector takes it.
    func makeHostTypedArray(
        _ type: JSTypedArrayType, byteCount: Int, named name: String
    ) throws(ScriptError) -> (ProtectedValue, UnsafeMutableRawPointer) {
        guard let memory = calloc(1, byteCount) else { throw ScriptError(name: "RangeError", message: "out of memory") }
        guard let array = JSObjectMakeTypedArrayWithBytesNoCopy(context, type, memory, byteCount, { bytes, _ in free(bytes) }, nil, nil)
        else {
            free(memory)
            throw ScriptError(name: "Error", message: "could not make a \(name)")
        }
        return (protect(array), memory)
    }
}
