import Foundation

/// Reads a scenario file's text within ``DocumentLimits/maximumBytes``.
///
/// Only a regular file is read (a FIFO or a device is refused without waiting for a writer), and never more than
/// one byte past the limit, so a huge file costs no more than a file at the limit.
enum DocumentReader {
    /// The text of the scenario file at `path` (bytes that are not UTF-8 become U+FFFD).
    static func read(_ path: String) throws(ScenarioError) -> String {
        func failure(_ reason: String) -> ScenarioError {
            ScenarioError(file: path, message: "cannot read the file: \(reason)")
        }
        // Non-blocking, so that opening a FIFO does not wait for a writer.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw failure("it is not a regular file") }
        let data: Data
        do {
            data = try handle.read(upToCount: DocumentLimits.maximumBytes + 1) ?? Data()
        } catch {
            throw failure("\(error)")
        }
        try DocumentLimits.checkSize(byteCount: max(data.count, Int(status.st_size)), file: path)
        return String(decoding: data, as: UTF8.self)
    }
}
