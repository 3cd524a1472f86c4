#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies one version of a file on disk: modification time, size and inode.
/// Comparing stamps is how hot reload notices an edited file without reading it.
public struct FileStamp: Equatable, Sendable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int
    var inode: UInt64

    /// The stamp of the file at `path`, or `nil` when there is no such file.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Glibc)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
        #else
        seconds = Int(info.st_mtimespec.tv_sec)
        nanoseconds = Int(info.st_mtimespec.tv_nsec)
        #endif
        size = Int(info.st_size)
        inode = UInt64(info.st_ino)
    }
}
