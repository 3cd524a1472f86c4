// libFuzzer target for the scenario reader: the input is taken as a scenario file's text
// and read as `focal test` reads it (YAML, document limits, every description). Built and
// run by `Scripts/fuzz scenario`. A crash, a hang or an unbounded allocation is a finding;
// a ScenarioError is not.
import CLibFuzzer
import FocalScenarios

#if canImport(Glibc)
import Glibc
#endif

@main
enum ScenarioFuzzer {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
                do throws(ScenarioError) {
                    _ = try Scenario(parsing: text, file: "fuzz.yaml")
                } catch {
                    // Every refusal must say where: the file at least.
                    precondition(error.file == "fuzz.yaml", "a scenario error that does not name the file")
                }
                return 0
            })
    }
}
