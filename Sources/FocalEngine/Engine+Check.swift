#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Engine {
    /// Evaluates every task file in the tasks directory without running any event:
    /// `index.js` first, then every other `.js` file outside `node_modules` in path
    /// order. Each syntax error, bad pattern and unloadable module is reported to the
    /// observer. Returns the task files that were evaluated.
    ///
    /// No op gives the time, so the files' top level sees `Date.now()` as 0, the Unix epoch
    /// (`new Date().toISOString()` is `1970-01-01T00:00:00.000Z`), and `Math.random()` draws the
    /// default session's numbers: every check of the same files gives the same errors.
    @discardableResult
    public func loadAllTaskFiles() -> [String] {
        let files = Self.taskFiles(in: scripts.modules.resolver.root)
        defaultSession.loadAll(files)
        return files
    }

    /// The task files below the tasks directory (relative paths, `index.js` first, as
    /// ``loadAllTaskFiles()`` finds them) that no session of this engine evaluated or required.
    public func unloadedTaskFiles() -> [String] {
        let root = scripts.modules.resolver.root + "/"
        let loaded = Set(scripts.modules.compiledPaths.map { $0.hasPrefix(root) ? String($0.dropFirst(root.count)) : $0 })
        return Self.taskFiles(in: scripts.modules.resolver.root).filter { !loaded.contains($0) }
    }

    /// The `.js` files below `root` (relative paths), `index.js` first, skipping
    /// `node_modules` and hidden entries.
    static func taskFiles(in root: String) -> [String] {
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            guard let directory = opendir(relative.isEmpty ? root : root + "/" + relative) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
                }
                guard !name.hasPrefix("."), name != "node_modules" else { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard stat(root + "/" + path, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    pending.append(path)
                } else if name.hasSuffix(".js") {
                    found.append(path)
                }
            }
        }
        return found.sorted { ($0 == "index.js" ? 0 : 1, $0) < ($1 == "index.js" ? 0 : 1, $1) }
    }
}
