import Logging

extension JSRuntime {
    /// Installs `console` with `log`, `info`, `warn`, `error` and `debug`, each taking
    /// any number of arguments. Strings print as they are, other values as JSON (or
    /// `String(value)` when JSON cannot express them), separated by spaces. Messages go
    /// to `logger` with the metadata `focal.console.method` set to the method's name; `console.debug`
    /// logs at the debug level, so `logger` must let it through for it to show.
    public func installConsole(logger: Logger) {
        let sink = makeFunction(name: "write") { [unowned self] _, arguments throws(ScriptError) in
            guard arguments.count == 2, let method = self.string(arguments[0]), let text = self.string(arguments[1]) else {
                return nil
            }
            let level: Logger.Level =
                switch method {
                case "error": .error
                case "warn": .warning
                case "debug": .debug
                default: .info
                }
            logger.log(level: level, "\(text)", metadata: ["focal.console.method": .string(method)])
            return nil
        }
        do throws(ScriptError) {
            guard let install = object(try evaluate(Self.consoleSource, sourceURL: "<focal console>")) else {
                throw ScriptError(name: "TypeError", message: "the console installer is not a function")
            }
            _ = try call(install, arguments: [sink])
        } catch {
            logger.error("console is not available to tasks: \(error)")
        }
    }

    private static let consoleSource = """
        (function (write) {
          function format(value) {
            if (typeof value === 'string') return value;
            try {
              const text = JSON.stringify(value);
              return text === undefined ? String(value) : text;
            } catch (e) {
              return String(value);
            }
          }
          const console = {};
          for (const method of ['log', 'info', 'warn', 'error', 'debug']) {
            console[method] = function (...args) { write(method, args.map(format).join(' ')); };
          }
          globalThis.console = console;
        })
        """
}
