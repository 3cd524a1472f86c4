import Foundation

/// Finds scenario files for `focal test`.
///
/// A file named explicitly is always a scenario. In a directory (searched recursively, skipping hidden directories
/// and `node_modules`), files ending in `.yaml`, `.yml` or `.json` that contain the word `journey` are scenarios,
/// and so are such files that cannot be read within the scenario limits (not a regular file, too large): running
/// them reports why.
public enum ScenarioDiscovery {
    /// The extensions of scenario files.
    public static let extensions: Set<String> = ["yaml", "yml", "json"]

    /// The scenario files at `paths` (files, or directories searched recursively), each directory's files in
    /// path order.
    ///
    /// - Throws: a ``ScenarioError`` for a path that does not exist.
    public static func files(at paths: [String]) throws(ScenarioError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ScenarioError(file: path, message: "no such file or directory")
            }
            if isDirectory.boolValue {
                files += scenarios(under: path)
            } else {
                files.append(path)
            }
        }
        return files
    }

    private static func scenarios(under directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") || name == "node_modules" {
                enumerator.skipDescendants()
                continue
            }
            let path = directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
            guard extensions.contains((name as NSString).pathExtension.lowercased()) else { continue }
            // Read within the scenario limits. A file that cannot be read (a FIFO, a device,
            // one over the size limit, no permission) is listed anyway, so that running it
            // reports why instead of passing over it in silence.
            do throws(ScenarioError) {
                guard try DocumentReader.read(path).contains("journey") else { continue }
            } catch {}
            found.append(path)
        }
        return found.sorted()
    }
}
