import FocalJSON
import FocalTestSupport
import Foundation
import Testing

@Suite("focal serve: who may call it, checked before it starts")
struct ServeAccessTests {
    @Test("a non-loopback --host without --keys is refused with exit 2, naming --keys and --no-auth")
    func nonLoopbackNeedsKeys() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('a', () => 1);"])
        for host in ["0.0.0.0", "::", "192.0.2.1"] {
            let run = try runFocal(["serve", "--tasks", workspace.tasks, "--host", host, "--port", "0"])
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.contains("--host \(host) is not a loopback address"), "\(run)")
            #expect(run.stderr.contains("--keys") && run.stderr.contains("--no-auth"))
        }
        let both = try runFocal(["serve", "--tasks", workspace.tasks, "--keys", "k.json", "--no-auth"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--keys and --no-auth exclude each other"))
    }

    @Test("a keys file that cannot be used stops the start with exit 2, naming the file and what is wrong")
    func badKeysFile() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('a', () => 1);"])
        let missing = try runFocal(["serve", "--tasks", workspace.tasks, "--port", "0", "--keys", workspace.path + "/none.json"])
        #expect(missing.status == 2)
        #expect(missing.errorLines.first?.contains("keys file '\(workspace.path)/none.json': cannot read it") == true, "\(missing)")
        let bad = try workspace.write("keys.json", #"{"keys": [{"name": "app", "sha256": "0000", "scopes": ["ingest"]}]}"#)
        let invalid = try runFocal(["serve", "--tasks", workspace.tasks, "--port", "0", "--keys", bad])
        #expect(invalid.status == 2)
        #expect(
            invalid.errorLines == [
                "error: keys file '\(bad)': keys[0] ('app').sha256 must be the SHA-256 of the key as 64 hexadecimal digits (never the key itself)"
            ])
        let noTasks = try workspace.write("projects.json", #"{"keys": [], "projects": {"shop": {"tasks": "no-such-dir"}}}"#)
        let project = try runFocal(["serve", "--tasks", workspace.tasks, "--port", "0", "--keys", noTasks])
        #expect(project.status == 2)
        #expect(project.errorLines.first?.contains("the project 'shop' of \(noTasks)") == true, "\(project)")
    }

    @Test("'focal keys new' prints a new 43-character URL-safe key and an entry holding its SHA-256")
    func keysNew() throws {
        let first = try runFocal(["keys", "new", "--name", "ios-app", "--scopes", "ingest", "read", "--project", "shop"])
        let second = try runFocal(["keys", "new", "--name", "ios-app", "--scopes", "ingest"])
        #expect(first.status == 0 && second.status == 0, "\(first)")
        #expect(first.stdoutLines.count == 2)
        let key = first.stdoutLines[0]
        #expect(key.utf8.count == 43 && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(key != second.stdoutLines[0], "each key is new")
        let entry = try JSONValue(parsing: first.stdoutLines[1])
        #expect(entry["name"] == "ios-app")
        #expect(entry["scopes"] == ["ingest", "read"])
        #expect(entry["project"] == "shop")
        // The hash of the key, as `sha256sum` computes it.
        let sum = try runFocal([], input: Data(key.utf8), executable: "/usr/bin/sha256sum")
        #expect(entry["sha256"]?.stringValue == String(sum.stdout.prefix(64)))
        #expect(first.stderr.contains("shown this once"))
        let web = try runFocal(["keys", "new", "--name", "web", "--scopes", "ingest", "--publishable", "--max-sessions", "200000"])
        let webEntry = try JSONValue(parsing: web.stdoutLines.last ?? "")
        #expect(webEntry["publishable"] == true, "\(web)")
        #expect(webEntry["maxSessions"] == 200000)

        for (arguments, message) in [
            (["--name", "a b", "--scopes", "ingest"], "--name may hold only"),
            (["--name", "app", "--scopes", "admin"], "'admin' is not a scope"),
            (["--name", "app", "--scopes", "read,read"], "--scopes lists a scope twice"),
            (["--name", "app", "--scopes", "read", "--burst", "3"], "--ops-per-second and --burst go together"),
            (["--name", "app", "--scopes", "read", "--ops-per-second", "0", "--burst", "3"], "--ops-per-second must be a number"),
            (["--name", "app", "--scopes", "ingest", "--bytes-per-second", "10"], "--bytes-per-second and --bytes-burst go together"),
            (["--name", "app", "--scopes", "ingest,read", "--publishable"], "--scopes must be ingest alone"),
            (["--name", "app", "--scopes", "ingest", "--max-sessions", "5"], "--max-sessions is a publishable key's ceiling"),
            (["--name", "app", "--scopes", "ingest", "--publishable", "--max-sessions", "0"], "--max-sessions must be a whole number"),
            (
                ["--name", "app", "--scopes", "ingest", "--bytes-per-second", "10", "--bytes-burst", "10"],
                "--bytes-per-second and --bytes-burst need --ops-per-second and --burst"
            ),
            (
                [
                    "--name", "app", "--scopes", "ingest", "--ops-per-second", "1", "--burst", "1", "--bytes-per-second", "0.5",
                    "--bytes-burst", "1",
                ],
                "--bytes-per-second must be a number from 1 to 1099511627776"
            ),
        ] {
            let run = try runFocal(["keys", "new"] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains(message), "\(run)")
            #expect(run.stdout.isEmpty, "no key printed")
        }
    }
}
