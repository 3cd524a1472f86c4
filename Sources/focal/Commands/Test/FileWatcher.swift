import FocalReplay

#if canImport(Glibc)
import Glibc
#endif

/// Waits for a change to the files below some directories (Linux inotify), for
/// `focal test --watch`: a file written, created, deleted or moved in any of them or
/// their subdirectories (hidden ones and `node_modules` excepted).
final class FileWatcher {
    /// The most directories watched; past it, the rest are not (and a warning says so).
    static let directoryLimit = 4096
    private let descriptor: Int32
    private var directories: [Int32: String] = [:]

    /// Watches every directory of `roots` and below.
    /// - Throws: the `errno` of a failed `inotify_init1`.
    init(roots: [String]) throws(WatchError) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw WatchError(code: errno, path: roots.first ?? ".") }
        var pending = roots
        while let directory = pending.popLast() {
            guard directories.count < Self.directoryLimit else {
                StandardStream.error.writeWarning("watching the first \(Self.directoryLimit) directories only")
                break
            }
            let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM)
            let watch = inotify_add_watch(descriptor, directory, mask)
            guard watch >= 0 else { continue }
            directories[watch] = directory
            guard let stream = opendir(directory) else { continue }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
                }
                guard !name.hasPrefix("."), name != "node_modules", entry.pointee.d_type == UInt8(DT_DIR) else { continue }
                pending.append(directory + "/" + name)
            }
        }
    }

    deinit { close(descriptor) }

    /// The number of directories watched.
    var count: Int { directories.count }

    /// Blocks until something changes, then waits until nothing has changed for
    /// `quiet` milliseconds (an editor writes a file in several steps); returns the
    /// first file that changed, or `nil` when the watch failed.
    func waitForChange(quiet: Int32 = 150) -> String? {
        var first: String?
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var timeout: Int32 = -1
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, timeout)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return first }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return first }
            if first == nil { first = firstPath(in: buffer, count: count) }
            timeout = quiet
        }
    }

    /// The path of the first event of `count` bytes of inotify events.
    private func firstPath(in buffer: [UInt8], count: Int) -> String {
        buffer.withUnsafeBytes { bytes in
            let watch = bytes.load(fromByteOffset: 0, as: Int32.self)
            let length = Int(bytes.load(fromByteOffset: 12, as: UInt32.self))
            let directory = directories[watch] ?? "?"
            guard length > 0, 16 + length <= count else { return directory }
            let name = bytes[16..<(16 + length)].prefix { $0 != 0 }
            return directory + "/" + String(decoding: name, as: UTF8.self)
        }
    }

    /// Why watching could not start.
    struct WatchError: Error, CustomStringConvertible {
        var code: Int32
        var path: String

        var description: String { "cannot watch '\(path)': \(String(cString: strerror(code)))" }
    }
}
